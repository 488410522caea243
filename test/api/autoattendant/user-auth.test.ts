import { describe, expect, it } from 'vitest';
import { AUTH_B, setupEnterprise } from '../enterprise/harness.js';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Account A with two enterprises, a BG_ADMIN and an AA_ADMIN in the first, a BG_ADMIN in the second. */
async function withUsers() {
  const env = await setupEnterprise();
  const acme = await env.enterprise({ name: 'Acme', autoAttendant: true });
  const globex = await env.enterprise({
    name: 'Globex',
    accountEmail: 'admin@globex.test',
    autoAttendant: true,
  });
  const add = async (emailId: string, role: string, enterpriseSid: string) => {
    const r = await env.send('POST', '/autoattendant/user', {
      emailId,
      role,
      enterpriseSid,
      password: `${emailId}-secret`,
    });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.data.sid as string;
  };
  const bg = await add('boss@acme.test', 'BG_ADMIN', acme);
  const aa = await add('clerk@acme.test', 'AA_ADMIN', acme);
  const other = await add('boss@globex.test', 'BG_ADMIN', globex);
  const as = (email: string) => basic(email, `${email}-secret`);
  return { ...env, acme, globex, bg, aa, other, as };
}

describe('Auto Attendant users sign in with their e-mail and password', () => {
  it('a BG_ADMIN acts within its enterprise only, on Auto Attendant and Task Router routes', async () => {
    const { send, acme, globex, other, as } = await withUsers();
    const auth = as('boss@acme.test');
    const added = await send(
      'POST',
      '/autoattendant/user',
      { emailId: 'new@acme.test', role: 'AA_ADMIN' },
      { auth },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.enterpriseSid).toBe(acme);
    // Another enterprise of the same account is out of reach: it reads as unknown.
    const elsewhere = await send(
      'POST',
      '/autoattendant/user',
      { emailId: 'x@globex.test', role: 'AA_ADMIN', enterpriseSid: globex },
      { auth },
    );
    expect(elsewhere.status).toBe(409);
    expect(
      (await send('GET', `/autoattendant/user/search/${other}`, undefined, { auth })).body.errorCode,
    ).toBe('487');
    const listed = await send('GET', '/autoattendant/user/search?pageSize=50', undefined, { auth });
    expect(listed.body.data.users ?? listed.body.data.results ?? listed.body.data).toBeDefined();
    const emails = JSON.stringify(listed.body.data);
    expect(emails).toContain('boss@acme.test');
    expect(emails).not.toContain('globex');
    const ws = await send(
      'POST',
      '/taskrouter/workspaces',
      { enterpriseSid: acme, name: 'Support' },
      { auth },
    );
    expect(ws.status, JSON.stringify(ws.body)).toBe(200);
    const foreignWs = await send(
      'POST',
      '/taskrouter/workspaces',
      { enterpriseSid: globex, name: 'Support' },
      { auth },
    );
    expect(foreignWs.status).not.toBe(200);
    // The account holder still sees and does everything.
    const all = await send('GET', '/autoattendant/user/search?pageSize=50');
    expect(JSON.stringify(all.body.data)).toContain('globex');
  });

  it('an AA_ADMIN cannot add users; nobody borrows another role through X-Acting-User', async () => {
    const { send, bg, aa, as } = await withUsers();
    const auth = as('clerk@acme.test');
    const refused = await send(
      'POST',
      '/autoattendant/user',
      { emailId: 'n@acme.test', role: 'AA_ADMIN' },
      { auth },
    );
    expect(refused.body.errorCode).toBe('499');
    const borrowed = await send(
      'POST',
      '/autoattendant/user',
      { emailId: 'n@acme.test', role: 'AA_ADMIN' },
      { auth, actingUser: bg },
    );
    expect(borrowed.body.errorCode).toBe('499');
    expect(borrowed.body.message).toContain('acts as itself');
    // It may update another user of its enterprise, not itself.
    expect((await send('PUT', `/autoattendant/user/${bg}`, { status: 'ACTIVE' }, { auth })).status).toBe(200);
    expect(
      (await send('PUT', `/autoattendant/user/${aa}`, { status: 'SUSPENDED' }, { auth })).body.errorCode,
    ).toBe('499');
  });

  it('wrong passwords, unknown e-mails, inactive users and the /enterprises area answer 401', async () => {
    const { send, aa, as } = await withUsers();
    expect(
      (await send('GET', '/autoattendant/user/search', undefined, { auth: basic('clerk@acme.test', 'nope') }))
        .status,
    ).toBe(401);
    expect(
      (await send('GET', '/taskrouter/workspaces/search', undefined, { auth: basic('nobody@x.test', 'x') }))
        .status,
    ).toBe(401);
    expect((await send('GET', '/enterprises/search', undefined, { auth: as('boss@acme.test') })).status).toBe(
      401,
    );
    await send('PUT', `/autoattendant/user/${aa}`, { status: 'SUSPENDED' });
    expect(
      (await send('GET', '/autoattendant/user/search', undefined, { auth: as('clerk@acme.test') })).status,
    ).toBe(401);
    // Another account's token never reaches these users.
    expect(
      (await send('GET', '/autoattendant/user/search', undefined, { auth: AUTH_B })).body.data.total ?? 0,
    ).toBe(0);
  });

  it('never echoes a password in an error body', async () => {
    const { send, acme } = await withUsers();
    const duplicate = await send('POST', '/autoattendant/user', {
      emailId: 'boss@acme.test',
      role: 'BG_ADMIN',
      enterpriseSid: acme,
      password: 'hunter2-hunter2',
    });
    expect(duplicate.status).toBe(409);
    expect(JSON.stringify(duplicate.body)).not.toContain('hunter2');
    expect(duplicate.body.data).toMatchObject({ emailId: 'boss@acme.test' });
    const bad = await send('POST', '/autoattendant/user', {
      emailId: 'nope',
      role: 'X',
      password: 'hunter2-hunter2',
    });
    expect(JSON.stringify(bad.body)).not.toContain('hunter2');
  });
});
