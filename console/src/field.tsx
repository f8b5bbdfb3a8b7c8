/**
 * The console's labelled text field, on react-aria-components: its label, description and error
 * message wired to the input, errors from the surrounding Form's `validationErrors`. Kept out of
 * ui.tsx so that react-aria loads with the pages that have forms, not with the shell.
 */
import { FieldError, Input, Label, Text, TextArea, TextField } from 'react-aria-components';

/** A labelled text input (or textarea with `multiline`); errors come from the surrounding Form's `validationErrors`. */
export function Field(props: {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'search';
  isRequired?: boolean;
  multiline?: boolean;
  description?: string;
  autoComplete?: string;
  defaultValue?: string;
  minLength?: number;
  maxLength?: number;
}) {
  return (
    <TextField
      className="field"
      name={props.name}
      type={props.type ?? 'text'}
      isRequired={props.isRequired}
      defaultValue={props.defaultValue}
      autoComplete={props.autoComplete}
      minLength={props.minLength}
      maxLength={props.maxLength}
    >
      <Label>
        {props.label}
        {props.isRequired ? <span aria-hidden="true"> *</span> : null}
      </Label>
      {props.multiline ? <TextArea rows={4} /> : <Input />}
      {props.description ? <Text slot="description">{props.description}</Text> : null}
      <FieldError className="field-error" />
    </TextField>
  );
}
