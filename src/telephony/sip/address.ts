/** SIP addresses: name-addr / addr-spec headers (From, To, Contact) and SIP URIs. */

/** A header like `"Alice" <sip:alice@host>;tag=1`. */
export interface NameAddr {
  display?: string;
  uri: string;
  params: Record<string, string>;
}

/** `sip:user@host:port;params`. */
export interface SipUri {
  scheme: string;
  user?: string;
  host: string;
  port?: number;
  params: Record<string, string>;
}

function readParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of text.split(';')) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    if (eq < 0) params[p.toLowerCase()] = '';
    else params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim();
  }
  return params;
}

/** Reads a From/To/Contact value; undefined when it holds no URI. */
export function parseNameAddr(value: string): NameAddr | undefined {
  const v = value.trim();
  const lt = v.indexOf('<');
  if (lt >= 0) {
    const gt = v.indexOf('>', lt);
    if (gt < 0) return undefined;
    const display = v.slice(0, lt).trim().replace(/^"|"$/g, '') || undefined;
    return { display, uri: v.slice(lt + 1, gt).trim(), params: readParams(v.slice(gt + 1)) };
  }
  // addr-spec: parameters after the URI belong to the header, not the URI.
  const semi = v.indexOf(';');
  const uri = semi < 0 ? v : v.slice(0, semi);
  if (!uri) return undefined;
  return { uri, params: semi < 0 ? {} : readParams(v.slice(semi + 1)) };
}

/** Reads a sip:/sips:/tel: URI; undefined when it is none. */
export function parseSipUri(uri: string): SipUri | undefined {
  const m = /^(sips?|tel):(?:([^@;]*)@)?([^;?]*)(;[^?]*)?/i.exec(uri.trim());
  if (!m) return undefined;
  const scheme = m[1].toLowerCase();
  if (scheme === 'tel') {
    return { scheme, user: decodeUser(m[3]), host: '', params: readParams(m[4] ?? '') };
  }
  const hostPort = m[3];
  let host = hostPort;
  let port: number | undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  if (v6) {
    host = v6[1];
    port = v6[2] ? Number(v6[2]) : undefined;
  } else {
    const colon = hostPort.lastIndexOf(':');
    if (colon > 0) {
      host = hostPort.slice(0, colon);
      port = Number(hostPort.slice(colon + 1));
      if (!Number.isInteger(port) || port <= 0 || port > 65535) return undefined;
    }
  }
  if (!host) return undefined;
  return {
    scheme,
    user: m[2] === undefined ? undefined : decodeUser(m[2]),
    host,
    port,
    params: readParams(m[4] ?? ''),
  };
}

function decodeUser(user: string): string {
  // The user part may carry a password (user:password); the number is before it.
  const plain = user.split(':')[0];
  try {
    return decodeURIComponent(plain);
  } catch {
    return plain;
  }
}

/** Writes a name-addr with its parameters (a tag added to a To, for instance). */
export function formatNameAddr(addr: NameAddr): string {
  const display = addr.display ? `"${addr.display.replace(/"/g, '')}" ` : '';
  const params = Object.entries(addr.params)
    .map(([k, v]) => (v === '' ? `;${k}` : `;${k}=${v}`))
    .join('');
  return `${display}<${addr.uri}>${params}`;
}

/** A Via header's parts: transport, sent-by and parameters (branch, rport, received). */
export interface Via {
  transport: string;
  host: string;
  port?: number;
  params: Record<string, string>;
}

export function parseVia(value: string): Via | undefined {
  const m = /^SIP\s*\/\s*2\.0\s*\/\s*([A-Za-z]+)\s+([^;\s]+)\s*(;.*)?$/.exec(value.trim());
  if (!m) return undefined;
  const uri = parseSipUri(`sip:${m[2]}`);
  if (!uri) return undefined;
  return { transport: m[1].toUpperCase(), host: uri.host, port: uri.port, params: readParams(m[3] ?? '') };
}
