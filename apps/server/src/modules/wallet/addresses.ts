import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, bech32m, createBase58check, hex } from '@scure/base';

/**
 * Address encoding and validation for the chains deposits and withdrawals use. Every chain of
 * the currencies table belongs to one family: the family decides which extended public key
 * deposit addresses derive from and how an address is written.
 */
export type ChainFamily = 'bitcoin' | 'ethereum' | 'tron';

const FAMILY_OF_CHAIN: Record<string, ChainFamily> = {
  // Omni Layer tokens (USDT-OMNI) live on ordinary Bitcoin addresses
  OMNI: 'bitcoin',
  BTC: 'bitcoin',
  ERC20: 'ethereum',
  ETH: 'ethereum',
  TRC20: 'tron',
  TRX: 'tron',
};

/** The family of a chain name of the currencies table, or null for a chain we cannot address. */
export function chainFamily(chain: string): ChainFamily | null {
  return FAMILY_OF_CHAIN[chain.toUpperCase()] ?? null;
}

const base58check = createBase58check(sha256);

const BITCOIN_P2PKH = 0x00;
const BITCOIN_P2SH = 0x05;
const TRON_PREFIX = 0x41;

function withPrefix(prefix: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 1);
  out[0] = prefix;
  out.set(payload, 1);
  return out;
}

/** The 20-byte account of Ethereum and Tron: keccak-256 of the uncompressed key without 0x04. */
function keccakAccount(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(-20);
}

/** Bitcoin pay-to-public-key-hash: base58check(0x00 ‖ RIPEMD-160(SHA-256(compressed key))). */
export function bitcoinP2pkhAddress(publicKey: Uint8Array): string {
  const compressed = secp256k1.Point.fromBytes(publicKey).toBytes(true);
  return base58check.encode(withPrefix(BITCOIN_P2PKH, ripemd160(sha256(compressed))));
}

/** EIP-55: a hex letter is upper-case when the matching nibble of keccak(lower-case hex) is ≥ 8. */
export function toChecksumAddress(address: string): string {
  const lower = address.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(lower)) throw new Error('not a 20-byte hex address');
  const digest = hex.encode(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i]!;
    out += Number.parseInt(digest[i]!, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

export function ethereumAddress(publicKey: Uint8Array): string {
  return toChecksumAddress(hex.encode(keccakAccount(publicKey)));
}

/** Tron: the Ethereum account bytes behind a 0x41 prefix, in base58check (starts with T). */
export function tronAddress(publicKey: Uint8Array): string {
  return base58check.encode(withPrefix(TRON_PREFIX, keccakAccount(publicKey)));
}

export function addressFor(family: ChainFamily, publicKey: Uint8Array): string {
  if (family === 'bitcoin') return bitcoinP2pkhAddress(publicKey);
  if (family === 'ethereum') return ethereumAddress(publicKey);
  return tronAddress(publicKey);
}

function base58Payload(address: string): Uint8Array | null {
  try {
    return base58check.decode(address);
  } catch {
    return null;
  }
}

/** Mainnet P2PKH (1…) or P2SH (3…) in base58check, or a bech32/bech32m segwit address (bc1…). */
export function isBitcoinAddress(address: string): boolean {
  if (/^[13]/.test(address)) {
    const p = base58Payload(address);
    return p !== null && p.length === 21 && (p[0] === BITCOIN_P2PKH || p[0] === BITCOIN_P2SH);
  }
  if (!/^bc1/i.test(address)) return false;
  // one case throughout (BIP 173)
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  for (const [coder, v0] of [
    [bech32, true],
    [bech32m, false],
  ] as const) {
    try {
      const { prefix, words } = coder.decode(lower as `${string}1${string}`, 90);
      if (prefix !== 'bc' || words.length === 0) continue;
      const version = words[0]!;
      const program = coder.fromWords(words.slice(1));
      if (version > 16 || program.length < 2 || program.length > 40) continue;
      // version 0 is written in bech32 with a 20- or 32-byte program; later versions in bech32m
      if (v0 && version === 0 && (program.length === 20 || program.length === 32)) return true;
      if (!v0 && version >= 1) return true;
    } catch {
      // not this encoding
    }
  }
  return false;
}

/**
 * 0x and 40 hex digits. All lower- or all upper-case carries no checksum and is accepted as it
 * is; mixed case must be the EIP-55 checksum, so a mistyped letter is caught.
 */
export function isEthereumAddress(address: string): boolean {
  const m = /^0x([0-9a-fA-F]{40})$/.exec(address);
  if (!m) return false;
  const body = m[1]!;
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(body) === address;
}

export function isTronAddress(address: string): boolean {
  if (!address.startsWith('T')) return false;
  const p = base58Payload(address);
  return p !== null && p.length === 21 && p[0] === TRON_PREFIX;
}

/**
 * The address as it is kept (Ethereum in its checksummed form), or null when it is not an
 * address of the chain.
 */
export function normalizeAddress(chain: string, input: string): string | null {
  const address = input.trim();
  const family = chainFamily(chain);
  if (family === 'bitcoin') {
    if (!isBitcoinAddress(address)) return null;
    return /^bc1/i.test(address) ? address.toLowerCase() : address;
  }
  if (family === 'ethereum') return isEthereumAddress(address) ? toChecksumAddress(address) : null;
  if (family === 'tron') return isTronAddress(address) ? address : null;
  return null;
}
