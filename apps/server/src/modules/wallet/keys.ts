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

/**
 * Reads an extended public key from the configuration. A private key (xprv…) is refused: it
 * does not belong on a server that takes requests from the internet.
 */
export function parseXpub(name: string, value: string): HDKey {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(value.trim());
  } catch {
    throw new Error(`${name} is not a valid BIP32 extended public key (xpub…)`);
  }
  if (key.privateKey) {
    key.wipePrivateData();
    throw new Error(
      `${name} holds a PRIVATE extended key: configure the extended PUBLIC key (xpub…) and keep the private key off the server`,
    );
  }
  return key;
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
  const account = HDKey.fromMasterSeed(seed).derive(`m/44'/${BIP44_COIN[family]}'/0'`);
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
    let key: HDKey;
    if (value) {
      key = parseXpub(ENV_NAME[family], value);
    } else {
      key = HDKey.fromExtendedKey(await developmentXpub(db, family));
      dev.push(family);
    }
    out[family] = {
      family,
      key,
      fingerprint: fingerprintOf(key),
      source: value ? 'config' : 'development',
    };
  }
  if (dev.length > 0) {
    warn(
      `wallet: DEVELOPMENT deposit keys in use for ${dev.join(', ')}; their seed is in the database. ` +
        `Set ${dev.map((f) => ENV_NAME[f]).join(', ')} to extended public keys of wallets you control before taking real deposits`,
    );
  }
  return out;
}
