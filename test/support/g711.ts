/** A G.711 WAV as telephone prompt tools write it: 8 kHz mono, 8-bit samples, an 18-byte `fmt ` and a `fact` chunk. */
export function writeG711Wav(seconds: number, format: 6 | 7): Uint8Array {
  const samples = Math.round(seconds * 8000);
  const header = 12 + (8 + 18) + (8 + 4) + 8;
  const out = new Uint8Array(header + samples + (samples & 1));
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 18, true);
  view.setUint16(20, format, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  view.setUint16(36, 0, true); // cbSize
  ascii(38, 'fact');
  view.setUint32(42, 4, true);
  view.setUint32(46, samples, true);
  ascii(50, 'data');
  view.setUint32(54, samples, true);
  out.fill(format === 7 ? 0xff : 0xd5, header, header + samples); // silence in each law
  return out;
}
