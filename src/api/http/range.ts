import { attachment } from './attachment.js';

/**
 * Serves the file `filename` (a download: `Content-Disposition: attachment`) honouring a single
 * `Range: bytes=...` request (206), answering 416 when the range cannot be satisfied.
 * Multi-range requests get the whole body (allowed by RFC 9110).
 */
export function rangedBody(
  bytes: Uint8Array,
  rangeHeader: string | undefined,
  contentType: string,
  filename: string,
): Response {
  const size = bytes.byteLength;
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Accept-Ranges': 'bytes',
    'Content-Disposition': attachment(filename),
  };
  const m = rangeHeader ? /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) {
    return new Response(bytes, { status: 200, headers: { ...headers, 'Content-Length': String(size) } });
  }
  let start: number;
  let end: number;
  if (m[1] === '') {
    // Suffix range: the last N bytes.
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) {
    return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${size}` } });
  }
  return new Response(bytes.slice(start, end + 1), {
    status: 206,
    headers: {
      ...headers,
      'Content-Range': `bytes ${start}-${end}/${size}`,
      'Content-Length': String(end - start + 1),
    },
  });
}
