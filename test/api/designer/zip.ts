import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-made zip; `declaredSize` lets a test lie about the inflated size. */
export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
  deflate?: boolean;
  declaredSize?: number;
  /** `data` is written as the entry's deflated bytes as given (method 8), e.g. bytes that cannot inflate. */
  rawDeflated?: boolean;
  /** A Unix symbolic link entry (external attributes of mode 0120777). */
  symlink?: boolean;
}

/** How the writer lays entries out. */
export interface ZipStyle {
  /**
   * As Java's `ZipOutputStream` (the platform designer's writer) does: the UTF-8 name flag, and
   * the CRC and sizes in a data descriptor after each entry's data (zeros in the local header).
   */
  java?: boolean;
}

/** Writes a zip without any of archiver's name cleaning, so hostile archives can be made. */
export function makeZip(entries: ZipEntry[], style: ZipStyle = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : Buffer.from(e.data);
    const body = e.deflate && !e.rawDeflated ? deflateRawSync(data) : data;
    const method = e.deflate || e.rawDeflated ? 8 : 0;
    const name = Buffer.from(e.name);
    const crc = crc32(data);
    const size = e.declaredSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const flags = style.java ? 0x0808 : 0;
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    if (!style.java) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(size, 22);
    }
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    let descriptorLength = 0;
    if (style.java) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(size, 12);
      locals.push(descriptor);
      descriptorLength = descriptor.length;
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    // Made by Unix (3) when a mode is given, so the external attributes are read as one.
    central.writeUInt16LE(e.symlink ? 0x0314 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    if (e.symlink) central.writeUInt32LE((0o120777 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length + descriptorLength;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
