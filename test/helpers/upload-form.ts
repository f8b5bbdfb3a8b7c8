/** A multipart body (FormData, encoded by light-my-request) with field `file` and text fields. */
export function form(data: Buffer, filename: string, fields: Record<string, string> = {}, fileField = 'file'): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append(fileField, new Blob([data]), filename);
  return f;
}
