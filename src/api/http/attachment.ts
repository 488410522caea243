/**
 * `Content-Disposition: attachment` of a download: a browser that opens the URL saves the file
 * instead of showing it (an uploaded file can then never render as a page of this origin).
 * The plain `filename` keeps only safe ASCII characters; `filename*` carries the name as given.
 */
export function attachment(filename: string): string {
  const plain = filename.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'download';
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
