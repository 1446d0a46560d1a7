/**
 * The demo documents' files, made in code rather than kept as binaries: a one-page PDF of
 * text lines and a greyscale PNG drawn from a few shapes (a stylised X-ray). Both are small,
 * valid files that the server's own checks accept (sniffFile) and that browsers open.
 */
import { crc32, deflateSync } from 'node:zlib';

// --- PDF -----------------------------------------------------------------------------------

/** A string as a PDF literal: ASCII only (the standard fonts' encoding), with ( ) \ escaped. */
function pdfString(text: string): string {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error(`demo PDF text must be printable ASCII: ${JSON.stringify(text)}`);
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

export interface PdfPage {
  /** The document's title: its first line, in bold, and its /Title. */
  title: string;
  /** The lines under it (an empty string leaves a blank line). */
  lines: readonly string[];
}

/**
 * A one-page A4 PDF 1.4 in Helvetica: a catalog, its page tree, one page, two standard fonts,
 * the text as its content stream and an info dictionary, with a cross-reference table whose
 * offsets are counted from the bytes written.
 */
export function onePagePdf({ title, lines }: PdfPage): Buffer {
  const text = [
    'BT',
    `/F1 16 Tf 56 780 Td ${pdfString(title)} Tj`,
    '/F2 10 Tf 15 TL 0 -30 Td',
    ...lines.map((line) => `${pdfString(line)} Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    `<< /Title ${pdfString(title)} /Producer (HealthBook demo data) >>`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  // Every entry is exactly 20 bytes: ten digits, five digits, the kind, then space and line feed.
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

// --- PNG -----------------------------------------------------------------------------------

/** A filled shape of a greyscale drawing; later shapes paint over earlier ones. */
export type Shape =
  | { kind: 'ellipse'; cx: number; cy: number; rx: number; ry: number; grey: number }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; grey: number };

export interface Drawing {
  width: number;
  height: number;
  /** The grey (0-255) where no shape is. */
  background: number;
  shapes: readonly Shape[];
}

function inside(shape: Shape, x: number, y: number): boolean {
  if (shape.kind === 'rect') return x >= shape.x && x < shape.x + shape.width && y >= shape.y && y < shape.y + shape.height;
  const dx = (x - shape.cx) / shape.rx;
  const dy = (y - shape.cy) / shape.ry;
  return dx * dx + dy * dy <= 1;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit greyscale PNG of the drawing, darker towards its edges (as a film is). */
export function greyscalePng({ width, height, background, shapes }: Drawing): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      let grey = background;
      for (const shape of shapes) if (inside(shape, x, y)) grey = shape.grey;
      const dx = (x - width / 2) / width;
      const dy = (y - height / 2) / height;
      const vignette = 1 - 0.8 * (dx * dx + dy * dy);
      raw[y * (width + 1) + 1 + x] = Math.max(0, Math.min(255, Math.round(grey * vignette)));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // bit depth 8, greyscale, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A chest film, front view: the body, both lungs, the heart's shadow and the spine. */
export const CHEST_XRAY: Drawing = {
  width: 160,
  height: 160,
  background: 18,
  shapes: [
    { kind: 'ellipse', cx: 80, cy: 88, rx: 68, ry: 74, grey: 150 },
    { kind: 'ellipse', cx: 52, cy: 80, rx: 22, ry: 44, grey: 58 },
    { kind: 'ellipse', cx: 108, cy: 80, rx: 22, ry: 44, grey: 58 },
    { kind: 'rect', x: 76, y: 14, width: 8, height: 146, grey: 215 },
    { kind: 'ellipse', cx: 90, cy: 104, rx: 20, ry: 17, grey: 175 },
  ],
};

/** A knee film, side view: the femur above, the tibia below, the joint space between, the kneecap in front. */
export const KNEE_XRAY: Drawing = {
  width: 120,
  height: 160,
  background: 18,
  shapes: [
    { kind: 'ellipse', cx: 60, cy: 80, rx: 44, ry: 84, grey: 90 },
    { kind: 'rect', x: 44, y: 0, width: 30, height: 62, grey: 205 },
    { kind: 'ellipse', cx: 59, cy: 66, rx: 24, ry: 13, grey: 205 },
    { kind: 'ellipse', cx: 60, cy: 90, rx: 25, ry: 8, grey: 200 },
    { kind: 'rect', x: 46, y: 90, width: 28, height: 70, grey: 200 },
    { kind: 'ellipse', cx: 90, cy: 70, rx: 9, ry: 14, grey: 195 },
  ],
};
