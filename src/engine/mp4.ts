/**
 * Checks that bytes are an MP4 (ISO base media) file that carries sound or picture, and reads
 * its length: the top-level boxes must tile the file, the first be `ftyp`, and `moov` hold an
 * `mvhd` (timescale and duration) and at least one `trak` whose handler is `soun` or `vide`.
 * Box sizes are never trusted beyond the bytes at hand. Nothing is decoded.
 */

export type Mp4Check = { ok: true; seconds: number; sound: boolean } | { ok: false; reason: string };

interface Box {
  type: string;
  /** First byte of the box's body. */
  body: number;
  /** One past its last byte. */
  end: number;
}

/** Four bytes as text, anything unprintable as `?` (box types are quoted in messages). */
const ascii = (b: Uint8Array, at: number) =>
  String.fromCharCode(...Array.from(b.subarray(at, at + 4), (c) => (c >= 0x20 && c < 0x7f ? c : 0x3f)));

/** The boxes laid end to end in [from, to); a string saying what is wrong otherwise. */
function boxes(bytes: Uint8Array, view: DataView, from: number, to: number): Box[] | string {
  const out: Box[] = [];
  let at = from;
  while (at < to) {
    if (at + 8 > to) return `a box header at byte ${at} is cut short`;
    let size = view.getUint32(at);
    const type = ascii(bytes, at + 4);
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) return `box '${type}' at byte ${at} is cut short`;
      const large = view.getBigUint64(at + 8);
      if (large > BigInt(to - at)) return `box '${type}' at byte ${at} runs past its parent`;
      size = Number(large);
      body = at + 16;
    } else if (size === 0) size = to - at;
    if (size < body - at || at + size > to) return `box '${type}' at byte ${at} runs past its parent`;
    out.push({ type, body, end: at + size });
    if (out.length > 10_000) return 'too many boxes';
    at += size;
  }
  return out;
}

export function checkMp4(bytes: Uint8Array): Mp4Check {
  const fail = (reason: string): Mp4Check => ({ ok: false, reason });
  if (bytes.length < 16) return fail(`too short for an MP4 file (${bytes.length} bytes)`);
  if (ascii(bytes, 4) !== 'ftyp') return fail("not an MP4 file: no 'ftyp' box first");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const top = boxes(bytes, view, 0, bytes.length);
  if (typeof top === 'string') return fail(top);
  if (top[0]?.type !== 'ftyp') return fail("not an MP4 file: no 'ftyp' box first");
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) return fail("no 'moov' box");
  const inMoov = boxes(bytes, view, moov.body, moov.end);
  if (typeof inMoov === 'string') return fail(inMoov);
  const mvhd = inMoov.find((b) => b.type === 'mvhd');
  if (!mvhd) return fail("no 'mvhd' box");
  const version = bytes[mvhd.body];
  const need = version === 1 ? 32 : 20;
  if (mvhd.end - mvhd.body < need) return fail("'mvhd' box too short");
  const timescale = view.getUint32(mvhd.body + (version === 1 ? 20 : 12));
  const duration = version === 1 ? Number(view.getBigUint64(mvhd.body + 24)) : view.getUint32(mvhd.body + 16);
  if (timescale === 0) return fail("'mvhd' timescale is zero");
  let sound = false;
  let picture = false;
  for (const trak of inMoov.filter((b) => b.type === 'trak')) {
    const mdia = boxesOf(bytes, view, trak).find((b) => b.type === 'mdia');
    const hdlr = mdia && boxesOf(bytes, view, mdia).find((b) => b.type === 'hdlr');
    // hdlr: version/flags (4), pre_defined (4), handler_type (4).
    if (!hdlr || hdlr.end - hdlr.body < 12) continue;
    const handler = ascii(bytes, hdlr.body + 8);
    if (handler === 'soun') sound = true;
    if (handler === 'vide') picture = true;
  }
  if (!sound && !picture) return fail('no sound or video track');
  return { ok: true, seconds: duration / timescale, sound };
}

const boxesOf = (bytes: Uint8Array, view: DataView, parent: Box): Box[] => {
  const inner = boxes(bytes, view, parent.body, parent.end);
  return typeof inner === 'string' ? [] : inner;
};

/**
 * A minimal MP4 of `seconds` with one sound track (no samples): what tests and examples need to
 * exercise MP4 media without shipping a file.
 */
export function writeMp4(seconds: number, handler: 'soun' | 'vide' = 'soun'): Uint8Array {
  const box = (type: string, ...parts: Uint8Array[]) => {
    const size = 8 + parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(size);
    new DataView(out.buffer).setUint32(0, size);
    for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
    let at = 8;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const text = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));
  const mvhd = new Uint8Array(100);
  const mv = new DataView(mvhd.buffer);
  mv.setUint32(12, 1000);
  mv.setUint32(16, Math.round(seconds * 1000));
  const hdlr = new Uint8Array(25);
  hdlr.set(text(handler), 8);
  return Uint8Array.from([
    ...box('ftyp', text('isom'), new Uint8Array(4), text('isommp41')),
    ...box('moov', box('mvhd', mvhd), box('trak', box('mdia', box('hdlr', hdlr)))),
  ]);
}
