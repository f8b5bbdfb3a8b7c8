/** Tiny but real files built in code, for the demo data and the upload tests: PNG, JPEG, PDF, HEIC, CFB. */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG of width x height pixels in one RGB colour. */
export function pngBytes(width = 2, height = 2, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A valid baseline JPEG of one solid colour (width and height multiples of 8): YCbCr 4:4:4,
 * quantisation 1, so each 8x8 block is a DC coefficient only; minimal Huffman tables (DC
 * categories 0..11 with 4-bit codes, AC just end-of-block).
 */
export function jpegBytes(width = 8, height = 8, rgb: [number, number, number] = [58, 110, 165]): Buffer {
  const [r, g, b] = rgb;
  const ycc = [
    0.299 * r + 0.587 * g + 0.114 * b,
    128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
    128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
  ].map((v) => Math.round(8 * (Math.min(255, Math.max(0, v)) - 128)));
  const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const bits: number[] = [];
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i -= 1) bits.push((value >> i) & 1);
  };
  const pred = [0, 0, 0];
  const blocks = (width / 8) * (height / 8);
  for (let blk = 0; blk < blocks; blk += 1) {
    for (let c = 0; c < 3; c += 1) {
      const diff = ycc[c]! - pred[c]!;
      pred[c] = ycc[c]!;
      const size = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      put(size, 4); // DC category: canonical 4-bit code = the category
      if (size > 0) put(diff > 0 ? diff : diff + (1 << size) - 1, size);
      put(0, 1); // AC: end of block
    }
  }
  while (bits.length % 8 !== 0) bits.push(1);
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = bits.slice(i, i + 8).reduce((acc, bit) => (acc << 1) | bit, 0);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00);
  }
  const dcCounts = [0, 0, 0, 12, ...Array(12).fill(0)];
  const acCounts = [1, ...Array(15).fill(0)];
  return Buffer.from([
    0xff, 0xd8,
    ...seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...seg(0xdb, [0x00, ...Array(64).fill(1)]),
    ...seg(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...seg(0xc4, [0x00, ...dcCounts, ...Array.from({ length: 12 }, (_, i) => i)]),
    ...seg(0xc4, [0x10, ...acCounts, 0x00]),
    ...seg(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    ...scan,
    0xff, 0xd9,
  ]);
}

/** A minimal valid one-page PDF. */
export function pdfBytes(text = 'Gas safety certificate'): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** An ISO-BMFF ftyp box with major brand 'heic' (what file-type needs to say HEIC) and a meta box declaring its size, padded. */
export function heicBytes(): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'ascii'), Buffer.from([0, 0, 0, 0]), Buffer.from('mif1heic', 'ascii')]);
  // meta > iprp > ipco > ispe: the image's declared size (4032 x 3024), read by the pixel limit.
  const box = (type: string, body: Buffer, full = false) => {
    const head = Buffer.alloc(full ? 12 : 8);
    head.writeUInt32BE(head.length + body.length, 0);
    head.write(type, 4, 'ascii');
    return Buffer.concat([head, body]);
  };
  const size = Buffer.alloc(8);
  size.writeUInt32BE(4032, 0);
  size.writeUInt32BE(3024, 4);
  const meta = box('meta', box('iprp', box('ipco', box('ispe', size, true))), true);
  return Buffer.concat([ftyp, meta, Buffer.alloc(64)]);
}

/** An OLE compound file header (legacy .doc/.xls), which file-type reports as 'cfb'. */
export function cfbBytes(): Buffer {
  return Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);
}
