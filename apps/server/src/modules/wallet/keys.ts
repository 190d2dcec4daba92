import { HDKey } from '@scure/bip32';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { serverSecret } from '../../db/secrets.ts';
import type { ChainFamily } from './addresses.ts';

/** An extended PUBLIC key deposit addresses derive from: the server never holds the private key. */
export interface FamilyKey {
  family: ChainFamily;
  key: HDKey;
  /** The key's BIP32 fingerprint in hex, kept with each address so operators know its origin. */
  fingerprint: string;
  /**
   * Where the key sits below its wallet's master key (`m/44'/0'/0'`; `m` for a master key):
   * each address records this path plus its own two steps, which is what recovers its private key.
   */
  path: string;
  source: 'config' | 'development';
}

export type DepositKeys = Record<ChainFamily, FamilyKey>;

export const CHAIN_FAMILIES: readonly ChainFamily[] = ['bitcoin', 'ethereum', 'tron'];

const ENV_NAME: Record<ChainFamily, string> = {
  bitcoin: 'XPUB_BITCOIN',
  ethereum: 'XPUB_ETHEREUM',
  tron: 'XPUB_TRON',
};

/** BIP44 coin types, used for the development keys' account level (m/44'/coin'/0'). */
const BIP44_COIN: Record<ChainFamily, number> = { bitcoin: 0, ethereum: 60, tron: 195 };
const developmentPath = (family: ChainFamily) => `m/44'/${BIP44_COIN[family]}'/0'`;

/** A configured key with its origin: `[d34db33f/44'/0'/0']xpub…` (the notation of BIP 380 descriptors). */
const ORIGIN_RE = /^\[([0-9a-fA-F]{8})((?:\/[0-9]+['hH]?)*)\](.*)$/s;
const HARDENED = 0x80000000;

/**
 * Reads an extended public key from the configuration, with the path it was derived at from its
 * wallet's master key. A master key (depth 0) needs no origin; any other must carry one
 * (`[fingerprint/path]xpub…`), else the addresses made from it could not say which private key
 * spends them. A private key (xprv…) is refused: it does not belong on a server that takes
 * requests from the internet.
 */
export function parseDepositKey(name: string, value: string): { key: HDKey; path: string } {
  const text = value.trim();
  const origin = ORIGIN_RE.exec(text);
  const encoded = origin ? origin[3]!.trim() : text;
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(encoded);
  } catch {
    throw new Error(`${name} is not a valid BIP32 extended public key (xpub…)`);
  }
  if (key.privateKey) {
    key.wipePrivateData();
    throw new Error(
      `${name} holds a PRIVATE extended key: configure the extended PUBLIC key (xpub…) and keep the private key off the server`,
    );
  }
  if (!origin) {
    if (key.depth === 0) return { key, path: 'm' };
    throw new Error(
      `${name} is at depth ${key.depth} below its master key: write it with its origin, e.g. [d34db33f/44'/0'/0']xpub…, so each deposit address records the full path to its private key`,
    );
  }
  const steps = origin[2]!.split('/').filter((x) => x !== '');
  const last = steps[steps.length - 1];
  const lastIndex = last === undefined ? 0 : Number.parseInt(last, 10) + (/['hH]$/.test(last) ? HARDENED : 0);
  if (steps.length !== key.depth || (key.depth > 0 && lastIndex !== key.index))
    throw new Error(
      `${name}: the origin path has ${steps.length} steps but the key is at depth ${key.depth}, index ${key.index}`,
    );
  // one step below the master key, the origin's fingerprint is the key's parent's: a typo shows
  if (key.depth === 1 && Number.parseInt(origin[1]!, 16) !== key.parentFingerprint)
    throw new Error(`${name}: the origin's fingerprint ${origin[1]} is not the key's parent's`);
  return { key, path: ['m', ...steps.map((x) => x.replace(/[hH]$/, "'"))].join('/') };
}

/** The extended public key of a configured value (see parseDepositKey). */
export function parseXpub(name: string, value: string): HDKey {
  return parseDepositKey(name, value).key;
}

/** The full path of a deposit address from the wallet's master key: the key's path, currency, user. */
export function depositPath(fk: Pick<FamilyKey, 'path'>, currencyId: number, userId: number): string {
  return `${fk.path}/${currencyId}/${userId}`;
}

const fingerprintOf = (key: HDKey) => key.fingerprint.toString(16).padStart(8, '0');

/**
 * The development key of a family: derived once from a random seed made on first start, kept in
 * server_secrets (the seed, so test coins sent to these addresses can be recovered, and the
 * account-level xpub the server works with). Concurrent starters agree on one value.
 */
async function developmentXpub(db: Db, family: ChainFamily): Promise<string> {
  const name = `wallet_dev_xpub_${family}`;
  const read = async () =>
    (await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]))[0]?.value;
  const existing = await read();
  if (existing) return existing;
  const seed = Buffer.from(await serverSecret(db, 'wallet_dev_seed'), 'base64url');
  const account = HDKey.fromMasterSeed(seed).derive(developmentPath(family));
  const xpub = account.publicExtendedKey;
  account.wipePrivateData();
  seed.fill(0);
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    xpub,
  ]);
  const stored = await read();
  if (!stored) throw new Error(`secret ${name} missing`);
  return stored;
}

/**
 * One extended public key per chain family: XPUB_BITCOIN, XPUB_ETHEREUM, XPUB_TRON from the
 * environment, or development keys when one is not configured (with a warning in the log).
 */
export async function loadDepositKeys(
  db: Db,
  config: Pick<Config, 'xpubBitcoin' | 'xpubEthereum' | 'xpubTron'>,
  warn: (msg: string) => void,
): Promise<DepositKeys> {
  const configured: Record<ChainFamily, string | undefined> = {
    bitcoin: config.xpubBitcoin,
    ethereum: config.xpubEthereum,
    tron: config.xpubTron,
  };
  const out = {} as DepositKeys;
  const dev: ChainFamily[] = [];
  for (const family of CHAIN_FAMILIES) {
    const value = configured[family];
    let parsed: { key: HDKey; path: string };
    if (value) {
      parsed = parseDepositKey(ENV_NAME[family], value);
    } else {
      parsed = {
        key: HDKey.fromExtendedKey(await developmentXpub(db, family)),
        path: developmentPath(family),
      };
      dev.push(family);
    }
    out[family] = {
      family,
      key: parsed.key,
      fingerprint: fingerprintOf(parsed.key),
      path: parsed.path,
      source: value ? 'config' : 'development',
    };
  }
  await fullDerivationPaths(db, out, warn);
  if (dev.length > 0) {
    warn(
      `wallet: DEVELOPMENT deposit keys in use for ${dev.join(', ')}; their seed is in the database. ` +
        `Set ${dev.map((f) => ENV_NAME[f]).join(', ')} to extended public keys of wallets you control before taking real deposits`,
    );
  }
  return out;
}

/**
 * Addresses made before paths were recorded from the master key hold `m/<currency>/<user>`, relative
 * to their key: rewritten to the full path when their key is one in use now (same fingerprint).
 * Those of a key no longer configured cannot be completed here; the log says how many.
 */
async function fullDerivationPaths(db: Db, keys: DepositKeys, warn: (msg: string) => void): Promise<void> {
  const byFingerprint = new Map(Object.values(keys).map((k) => [k.fingerprint, k.path]));
  for (const [fingerprint, path] of byFingerprint) {
    if (path === 'm') continue;
    await db.query(
      `UPDATE deposit_addresses SET derivation_path = $2 || substr(derivation_path, 2)
        WHERE key_fingerprint = $1 AND derivation_path ~ '^m/[0-9]+/[0-9]+$'`,
      [fingerprint, path],
    );
  }
  const [left] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM deposit_addresses
      WHERE derivation_path ~ '^m/[0-9]+/[0-9]+$' AND NOT (key_fingerprint = ANY($1))`,
    [[...byFingerprint.keys()]],
  );
  if (left && left.n > 0)
    warn(
      `wallet: ${left.n} deposit addresses come from keys no longer configured; their derivation_path is relative to that key (key_fingerprint)`,
    );
}
