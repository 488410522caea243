/**
 * Fencing tokens of the nodes of a cluster, kept where their writes land. Each node holds an
 * epoch in `cluster_leases`; every transaction it commits first checks, under a shared row
 * lock, that the epoch is still its own. A survivor taking a dead node over bumps the dead
 * node's epoch (which waits for the dead node's transaction in flight, if any) before it reads
 * and closes its calls: from then on no write of the dead node commits, whatever it believes.
 */
import type pg from 'pg';

/** Refusal of a write because this node's epoch was superseded (it was taken over or restarted). */
export class FencedError extends Error {
  constructor(
    readonly node: string,
    readonly epoch: number,
  ) {
    super(`node ${node} no longer holds epoch ${epoch}: it was taken over or started again elsewhere`);
    this.name = 'FencedError';
  }
}

/** A node's epoch, as its writes carry it; `renew` and `supersede` change it. */
export interface NodeEpoch {
  readonly node: string;
  epoch: number;
}

/** Starts a new epoch for `node` (its start: any earlier run of it is fenced off). */
export async function claimEpoch(client: pg.ClientBase, node: string): Promise<number> {
  const { rows } = await client.query<{ epoch: number }>(
    `INSERT INTO cluster_leases (node, epoch) VALUES ($1, 1)
     ON CONFLICT (node) DO UPDATE SET epoch = cluster_leases.epoch + 1 RETURNING epoch`,
    [node],
  );
  return Number(rows[0]?.epoch);
}

/**
 * Moves `node` from `epoch` to the next one, only if it still holds `epoch`: the new epoch,
 * or undefined when another node (or a later run) moved it first. A survivor taking `node`
 * over and `node` renewing its own lapsed lease both go through here: exactly one of them wins.
 */
export async function advanceEpoch(
  client: pg.ClientBase,
  node: string,
  epoch: number,
): Promise<number | undefined> {
  const { rows } = await client.query<{ epoch: number }>({
    name: 'rcml_lease_advance',
    text: 'UPDATE cluster_leases SET epoch = epoch + 1 WHERE node = $1 AND epoch = $2 RETURNING epoch',
    values: [node, epoch],
  });
  return rows[0] === undefined ? undefined : Number(rows[0].epoch);
}

/** The epoch `node` holds now, or undefined when it never joined. */
export async function currentEpoch(
  client: pg.ClientBase | pg.Pool,
  node: string,
): Promise<number | undefined> {
  const { rows } = await client.query<{ epoch: number }>('SELECT epoch FROM cluster_leases WHERE node = $1', [
    node,
  ]);
  return rows[0] === undefined ? undefined : Number(rows[0].epoch);
}

/**
 * Checks, at the start of a transaction, that `holder` still holds its epoch, and keeps it
 * (a shared row lock) until the transaction ends: a takeover's bump waits for this commit.
 */
export async function checkEpoch(client: pg.ClientBase, holder: NodeEpoch): Promise<void> {
  const { rowCount } = await client.query({
    name: 'rcml_lease_check',
    text: 'SELECT 1 FROM cluster_leases WHERE node = $1 AND epoch = $2 FOR SHARE',
    values: [holder.node, holder.epoch],
  });
  if (rowCount === 0) throw new FencedError(holder.node, holder.epoch);
}
