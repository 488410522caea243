import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../src/api/autoattendant/password.js';
import { ACCOUNT_A, AUTH_B, setupEnterprise, T0 } from '../enterprise/harness.js';

const user = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Admin',
  emailId: 'ada@acme.test',
  password: 'correct horse',
  role: 'BG_ADMIN',
  ...over,
});

async function withEnterprise() {
  const env = await setupEnterprise();
  const enterpriseSid = await env.enterprise();
  const create = (over: Record<string, unknown> = {}, actingUser?: string) =>
    env.send('POST', '/autoattendant/user', user({ enterpriseSid, ...over }), { actingUser });
  return { ...env, enterpriseSid, create };
}

describe('create user', () => {
  it('answers the user in the envelope, status ACTIVE by default, never the password', async () => {
    const { create, enterpriseSid, enterpriseStore } = await withEnterprise();
    const r = await create();
    expect(r.status).toBe(200);
    const sid = r.body.data.sid;
    expect(sid).toMatch(/^RCS[0-9a-f]{32}$/);
    expect(r.body).toEqual({
      code: 200,
      message: 'OK',
      data: {
        sid,
        accountEmail: 'admin@acme.test',
        dateCreated: '2024-03-05T12:00:00+0000',
        dateUpdated: '2024-03-05T12:00:00+0000',
        name: 'Ada Admin',
        emailId: 'ada@acme.test',
        role: 'BG_ADMIN',
        status: 'ACTIVE',
        enterpriseSid,
        uri: `/autoattendant/user/search/${sid}`,
      },
    });
    expect(JSON.stringify(r.body)).not.toContain('correct horse');
    const stored = await enterpriseStore.users.get(ACCOUNT_A, sid);
    expect(stored?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('correct horse', stored?.passwordHash ?? '')).toBe(true);
    expect(await verifyPassword('wrong horse', stored?.passwordHash ?? '')).toBe(false);
  });

  it('validates emailId, role and status with 400 naming the field', async () => {
    const { create } = await withEnterprise();
    for (const [over, message] of [
      [{ emailId: undefined }, 'emailId: is required'],
      [{ emailId: 'not-an-email' }, 'emailId: must be an e-mail address'],
      [{ role: undefined }, 'role: must be one of BG_ADMIN, AA_ADMIN'],
      [{ role: 'ROOT' }, 'role: must be one of BG_ADMIN, AA_ADMIN'],
      [{ status: 'GONE' }, 'status: must be one of ACTIVE, SUSPENDED, DELETED'],
      [{ password: 'short' }, 'password: at least 8 characters'],
    ] as const) {
      const r = await create(over);
      expect(r.status, message).toBe(400);
      expect(r.body.message).toBe(message);
      expect(r.body.data.name).toBe('Ada Admin');
    }
  });

  it('answers 467 for an unknown or missing enterprise, 505 for another account’s', async () => {
    const { create, send, enterprise } = await withEnterprise();
    const unknown = await create({ enterpriseSid: `EN${'1'.repeat(32)}` });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toMatchObject({ errorCode: '467', message: 'Enterprise not found' });
    expect(unknown.body.data.emailId).toBe('ada@acme.test');
    expect((await create({ enterpriseSid: undefined })).body.errorCode).toBe('467');
    const otherSid = await enterprise({}, AUTH_B);
    const other = await create({ enterpriseSid: otherSid });
    expect(other.body).toMatchObject({
      errorCode: '505',
      message: 'Platform account belongs to a different admin account',
    });
    expect((await send('GET', `/enterprises/search/${otherSid}`)).body.errorCode).toBe('467');
  });

  it('answers 484 for an e-mail already used in the account, in any case', async () => {
    const { create } = await withEnterprise();
    await create();
    const dup = await create({ emailId: 'ADA@acme.test', role: 'AA_ADMIN' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ errorCode: '484', message: 'supportUser not unique' });
  });
});

describe('role rules (X-Acting-User)', () => {
  it('lets a BG_ADMIN add users of both roles to its enterprise, not to another', async () => {
    const { create, enterprise } = await withEnterprise();
    const admin = (await create()).body.data;
    expect((await create({ emailId: 'b@acme.test', role: 'BG_ADMIN' }, admin.sid)).status).toBe(200);
    const aa = await create(
      { emailId: 'c@acme.test', role: 'AA_ADMIN', enterpriseSid: undefined },
      'ADA@acme.test',
    );
    expect(aa.status).toBe(200);
    expect(aa.body.data.enterpriseSid).toBe(admin.enterpriseSid);
    const second = await enterprise({ name: 'Other' });
    const refused = await create({ emailId: 'd@acme.test', enterpriseSid: second }, admin.sid);
    expect(refused.body).toMatchObject({
      errorCode: '499',
      message:
        'Error in creating an account under the platform: a BG_ADMIN adds users to its own enterprise only',
    });
  });

  it('refuses AA_ADMIN adding users (499) and lets it update others of its enterprise', async () => {
    const { create, send } = await withEnterprise();
    const aa = (await create({ emailId: 'aa@acme.test', role: 'AA_ADMIN' })).body.data;
    const bg = (await create({ emailId: 'bg@acme.test' })).body.data;
    const refused = await create({ emailId: 'new@acme.test', role: 'AA_ADMIN' }, aa.sid);
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('499');
    expect(refused.body.message).toContain('AA_ADMIN users cannot add users');
    const updated = await send(
      'PUT',
      `/autoattendant/user/${bg.sid}`,
      { status: 'SUSPENDED' },
      { actingUser: aa.sid },
    );
    expect(updated.body.data.status).toBe('SUSPENDED');
  });

  it('lets a BG_ADMIN update others of its enterprise but not itself or other enterprises', async () => {
    const { create, send, enterprise } = await withEnterprise();
    const bg = (await create()).body.data;
    const aa = (await create({ emailId: 'aa@acme.test', role: 'AA_ADMIN' })).body.data;
    const other = await enterprise({ name: 'Other' });
    const outsider = (await create({ emailId: 'out@acme.test', enterpriseSid: other })).body.data;
    const put = (sid: string, status: string) =>
      send('PUT', `/autoattendant/user/${sid}`, { status }, { actingUser: bg.sid });
    expect((await put(aa.sid, 'DELETED')).body.data.status).toBe('DELETED');
    expect((await put(bg.sid, 'SUSPENDED')).body.message).toContain('users cannot change their own status');
    expect((await put(outsider.sid, 'SUSPENDED')).body.errorCode).toBe('499');
  });

  it('refuses an unknown acting user (487) and one that is not ACTIVE (499)', async () => {
    const { create, send } = await withEnterprise();
    const bg = (await create()).body.data;
    const unknown = await create({ emailId: 'x@acme.test' }, 'nobody@acme.test');
    expect(unknown.body).toMatchObject({ errorCode: '487' });
    await send('PUT', `/autoattendant/user/${bg.sid}`, { status: 'SUSPENDED' });
    const suspended = await create({ emailId: 'y@acme.test' }, bg.sid);
    expect(suspended.body.errorCode).toBe('499');
    expect(suspended.body.message).toContain('acting user is SUSPENDED');
  });
});

describe('get and update user', () => {
  it('gets by sid and answers 487 for unknown or another account’s user', async () => {
    const { create, send } = await withEnterprise();
    const u = (await create()).body.data;
    expect((await send('GET', `/autoattendant/user/search/${u.sid}`)).body.data).toEqual(u);
    const other = await send('GET', `/autoattendant/user/search/${u.sid}`, undefined, { auth: AUTH_B });
    expect(other).toEqual({
      status: 409,
      body: { errorCode: '487', message: 'Auto Attendant user Id not found', data: { sid: u.sid } },
    });
    expect(
      (await send('PUT', `/autoattendant/user/${u.sid}`, { status: 'DELETED' }, { auth: AUTH_B })).body
        .errorCode,
    ).toBe('487');
  });

  it('moves status through ACTIVE, SUSPENDED, DELETED and back, stamping dateUpdated', async () => {
    const { create, send, clock } = await withEnterprise();
    const u = (await create()).body.data;
    for (const [i, status] of ['SUSPENDED', 'DELETED', 'ACTIVE'].entries()) {
      clock.now = T0 + (i + 1) * 60_000;
      const r = await send('PUT', `/autoattendant/user/${u.sid}`, { status });
      expect(r.body.data.status).toBe(status);
      expect(r.body.data.dateUpdated).toBe(`2024-03-05T12:0${i + 1}:00+0000`);
      expect(r.body.data.dateCreated).toBe('2024-03-05T12:00:00+0000');
    }
    const bad = await send('PUT', `/autoattendant/user/${u.sid}`, { status: 'ARCHIVED' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('status: must be one of ACTIVE, SUSPENDED, DELETED');
  });

  it('checks an enterpriseSid given on update: 467 unknown, 505 other account, 487 not the user’s', async () => {
    const { create, send, enterprise } = await withEnterprise();
    const u = (await create()).body.data;
    const put = (enterpriseSid: string) =>
      send('PUT', `/autoattendant/user/${u.sid}`, { status: 'ACTIVE', enterpriseSid });
    expect((await put(`EN${'7'.repeat(32)}`)).body.errorCode).toBe('467');
    expect((await put(await enterprise({}, AUTH_B))).body.errorCode).toBe('505');
    expect((await put(await enterprise({ name: 'Second' }))).body.errorCode).toBe('487');
    expect((await put(u.enterpriseSid)).status).toBe(200);
  });
});

describe('search users', () => {
  async function population() {
    const env = await withEnterprise();
    const second = await env.enterprise({ name: 'Beta' });
    const people = [
      ['Zoe Zed', 'zoe@acme.test', 'BG_ADMIN', 'ACTIVE', env.enterpriseSid],
      ['Adam Ant', 'adam@acme.test', 'AA_ADMIN', 'SUSPENDED', env.enterpriseSid],
      ['Mia Moe', 'mia@beta.test', 'AA_ADMIN', 'ACTIVE', second],
      ['Bob Adams', 'bob@beta.test', 'BG_ADMIN', 'DELETED', second],
    ];
    for (const [i, [name, emailId, role, status, enterpriseSid]] of people.entries()) {
      env.clock.now = Date.UTC(2024, 2, 5 + i, 9, 0, 0);
      await env.create({ name, emailId, role, status, enterpriseSid });
    }
    const names = async (q: string) => {
      const r = await env.send('GET', `/autoattendant/user/search?${q}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.result.map((u: { name: string }) => u.name);
    };
    return { ...env, second, names };
  }

  it('filters by partial name and emailId, role, status and enterprise', async () => {
    const { names, second } = await population();
    expect(await names('name=ada')).toEqual(['Adam Ant', 'Bob Adams']);
    expect(await names('name=Zoe%20Zed')).toEqual(['Zoe Zed']);
    expect(await names('emailId=beta')).toEqual(['Mia Moe', 'Bob Adams']);
    expect(await names('emailId=zoe@acme.test')).toEqual(['Zoe Zed']);
    expect(await names('role=AA_ADMIN')).toEqual(['Adam Ant', 'Mia Moe']);
    expect(await names('status=DELETED')).toEqual(['Bob Adams']);
    expect(await names(`enterpriseSid=${second}`)).toEqual(['Mia Moe', 'Bob Adams']);
    expect(await names('startTime=2024-03-06&endTime=2024-03-07T09:00:00')).toEqual(['Adam Ant', 'Mia Moe']);
  });

  it('sorts by name, email and dateCreated both ways', async () => {
    const { names } = await population();
    expect(await names('SortBy=name:asc')).toEqual(['Adam Ant', 'Bob Adams', 'Mia Moe', 'Zoe Zed']);
    expect(await names('SortBy=email:desc')).toEqual(['Zoe Zed', 'Mia Moe', 'Bob Adams', 'Adam Ant']);
    expect(await names('SortBy=dateCreated:desc')).toEqual(['Bob Adams', 'Mia Moe', 'Adam Ant', 'Zoe Zed']);
    expect(await names('SortBy=name')).toEqual(['Adam Ant', 'Bob Adams', 'Mia Moe', 'Zoe Zed']);
  });

  it('refuses unknown role or status values and shows nothing of another account', async () => {
    const { send } = await population();
    expect((await send('GET', '/autoattendant/user/search?role=ROOT')).body.message).toBe(
      'role: must be one of BG_ADMIN, AA_ADMIN',
    );
    expect((await send('GET', '/autoattendant/user/search?status=x')).status).toBe(400);
    const other = await send('GET', '/autoattendant/user/search', undefined, { auth: AUTH_B });
    expect(other.body.data).toMatchObject({ result: [], total: 0, numPages: 0 });
  });
});
