import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';
import { writeIncoming, type IncomingFile } from './blob-store.ts';
import { ApiError } from './errors.ts';

/**
 * Outbound HTTP for imports and remote files. The server fetches URLs its users give it, so a URL must not
 * become a way to reach what only the server can reach: its loopback, its private network, a cloud metadata
 * service. Every address is checked where the connection is made (each hop of a redirect, every address a
 * name resolves to), so a name that resolves to a public address once and a private one later (DNS rebinding)
 * cannot slip through. Node's own http client does the work: its `lookup` hook is the one place every
 * connection passes; ipaddr.js classifies addresses.
 *
 * Errors are 4xx, since the URL is the caller's input: 400 when the URL is refused (not http(s), a non-public
 * address, a redirect to one), 413 when the response is larger than allowed, 422 when the URL could not be
 * fetched (unknown host, connection refused, TLS failure, timeout, too many redirects). A response with any
 * HTTP status is returned as is; callers decide what a 404 means for them.
 */
export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The response's Content-Type header as sent, if any. */
  contentType: string | undefined;
  /** The body, decoded from gzip, deflate or brotli (empty when it was saved to a file: see `saveTo`). */
  body: Buffer;
  /** With `saveTo`: the body's size, SHA-256 (hex) and first bytes (up to 64 KB, for sniffing its type). */
  saved?: IncomingFile;
}

export interface SafeFetchOptions {
  /** Largest body accepted, in bytes (after decompression). */
  maxBytes: number;
  /** The Accept header. */
  accept?: string;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  /** Aborts the fetch early (the configured timeout applies in any case). */
  signal?: AbortSignal;
  /**
   * `HEAD`, or `GET` without reading the body: for checks that need only the status (link checks). The answer's
   * body is then empty.
   */
  statusOnly?: 'HEAD' | 'GET';
  /** A POST with this body instead of a GET (Git's smart HTTP protocol posts its requests). Redirects are not followed. */
  post?: Buffer;
  /** The method that sends `post` (default POST): an integration script's API calls also PUT, PATCH and DELETE. */
  bodyMethod?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Further request headers (Content-Type, a Git client's Authorization from credentials in its URL). */
  headers?: Record<string, string>;
  /** Addresses reachable even when private fetches are not allowed; for tests that serve from 127.0.0.1. */
  trustedAddresses?: readonly string[];
  /** Name resolution, replaceable so tests can make any name resolve anywhere without a DNS server. */
  lookup?: typeof dnsLookup;
  /**
   * Streams the body into this file (created; removed again on failure) instead of holding it in memory, for
   * large downloads: only a chunk at a time and the first 64 KB are held.
   */
  saveTo?: string;
}

export type FetchSettings = Pick<Config, 'allowPrivateFetch' | 'fetchTimeoutMs'>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Quire (self-hosted documentation server)';

export async function safeFetch(settings: FetchSettings, url: string, options: SafeFetchOptions): Promise<FetchedResponse> {
  const timeout = AbortSignal.timeout(settings.fetchTimeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const maxRedirects = options.maxRedirects ?? 5;
  const guard: AddressGuard = {
    allowPrivate: settings.allowPrivateFetch,
    trusted: new Set(options.trustedAddresses ?? []),
    lookup: options.lookup ?? dnsLookup,
  };
  let target = parseTarget(url, `Cannot fetch "${url}"`);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const response = await request(target, guard, options.accept, signal, options.post ? (options.bodyMethod ?? 'POST') : (options.statusOnly ?? 'GET'), options);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location && !options.post) {
        response.resume();
        if (redirects >= maxRedirects) throw new ApiError(422, `Cannot fetch ${url}: more than ${maxRedirects} redirects`);
        target = parseTarget(resolveLocation(location, target), `Cannot fetch ${url}: it redirects to "${location}"`);
        continue;
      }
      if (options.statusOnly) {
        response.destroy();
        return { url: target.href, status: response.statusCode ?? 0, contentType: response.headers['content-type'], body: Buffer.alloc(0) };
      }
      const answered = { url: target.href, status: response.statusCode ?? 0, contentType: response.headers['content-type'] };
      if (options.saveTo !== undefined) return { ...answered, body: Buffer.alloc(0), saved: await saveBody(response, target, options.maxBytes, options.saveTo) };
      return { ...answered, body: await readBody(response, target, options.maxBytes) };
    }
  } catch (error) {
    throw fetchFailure(error, target, settings, timeout, options.signal);
  }
}

/** Why a fetch failed, as the ApiError its caller answers. */
function fetchFailure(error: unknown, target: URL, settings: FetchSettings, timeout: AbortSignal, signal: AbortSignal | undefined): ApiError {
  if (error instanceof ApiError) return error;
  if (timeout.aborted) return new ApiError(422, `Cannot fetch ${target.href}: no complete answer within ${settings.fetchTimeoutMs} ms`);
  if (signal?.aborted) return new ApiError(422, `Cannot fetch ${target.href}: the fetch was cancelled`);
  return new ApiError(422, `Cannot fetch ${target.href}: ${describeNetworkError(error)}`);
}

/** An answer whose body its caller reads as it arrives. */
export interface StreamedResponse {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, decoded from gzip, deflate or brotli; it errors when the time limit or the caller's signal ends the fetch. */
  body: Readable;
}

/**
 * safeFetch for an answer read as it arrives (a model's streamed reply): the same address checks, and the time
 * limit bounds the whole exchange, the body's last byte included. No redirect is followed, and the caller
 * bounds what it reads.
 */
export async function safeFetchStream(
  settings: FetchSettings,
  url: string,
  options: Pick<SafeFetchOptions, 'accept' | 'signal' | 'post' | 'bodyMethod' | 'headers' | 'trustedAddresses' | 'lookup'>,
): Promise<StreamedResponse> {
  const timeout = AbortSignal.timeout(settings.fetchTimeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const guard: AddressGuard = { allowPrivate: settings.allowPrivateFetch, trusted: new Set(options.trustedAddresses ?? []), lookup: options.lookup ?? dnsLookup };
  const target = parseTarget(url, `Cannot fetch "${url}"`);
  let response: IncomingMessage;
  try {
    response = await request(target, guard, options.accept, signal, options.post ? (options.bodyMethod ?? 'POST') : 'GET', options);
  } catch (error) {
    throw fetchFailure(error, target, settings, timeout, options.signal);
  }
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const body = decode(response, encoding);
  if (!body) {
    response.destroy();
    throw new ApiError(422, `Cannot fetch ${target.href}: the response uses the unsupported content encoding "${encoding}"`);
  }
  return { url: target.href, status: response.statusCode ?? 0, headers: response.headers, body };
}

/**
 * The range an address belongs to when it is not a public one (`loopback`, `private`, …), or undefined for a
 * public unicast address. IPv6 must be global unicast (2000::/3); IPv4-mapped IPv6 is judged as the IPv4 it maps.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST)) return 'reserved';
  return undefined;
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  uniqueLocal: 'a private network address (IPv6 unique local)',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

interface AddressGuard {
  allowPrivate: boolean;
  trusted: ReadonlySet<string>;
  lookup: typeof dnsLookup;
}

class RefusedAddress extends Error {}

function check(guard: AddressGuard, host: string, address: string): void {
  if (guard.allowPrivate || guard.trusted.has(address)) return;
  const range = nonPublicRange(address);
  if (range === undefined) return;
  const what = RANGE_NAMES[range] ?? 'not a public address';
  const via = host === address ? '' : ` (${host} resolves to ${address})`;
  throw new RefusedAddress(`${address} is ${what}${via}; the server only fetches from public addresses`);
}

function parseTarget(value: string, context: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError(400, `${context}: it is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(400, `${context}: only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

/** Node skips `lookup` for a literal IP, so literals are checked here; names are checked as they resolve. */
function request(
  target: URL,
  guard: AddressGuard,
  accept: string | undefined,
  signal: AbortSignal,
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  extra: Pick<SafeFetchOptions, 'post' | 'headers'> = {},
): Promise<IncomingMessage> {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    try {
      check(guard, host, host);
    } catch (error) {
      throw new ApiError(400, `Refusing to fetch ${target.href}: ${(error as Error).message}`);
    }
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    guard.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      try {
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        for (const { address } of addresses) check(guard, hostname, address);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target, {
      method,
      headers: { 'user-agent': USER_AGENT, accept: accept ?? '*/*', 'accept-encoding': 'gzip, br', ...extra.headers, ...(extra.post ? { 'content-length': String(extra.post.length) } : {}) },
      lookup,
      signal,
      // No pooled sockets: a connection is reused only by the request whose checks opened it.
      agent: false,
    });
    req.once('response', resolve);
    req.once('error', (error) => {
      if (error instanceof RefusedAddress) reject(new ApiError(400, `Refusing to fetch ${target.href}: ${error.message}`));
      else reject(error);
    });
    req.end(extra.post);
  });
}

async function readBody(response: IncomingMessage, target: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new ApiError(413, `Cannot fetch ${target.href}: the response is larger than ${maxBytes} bytes`);
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const declared = Number(response.headers['content-length']);
  if (encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const decoded = decode(response, encoding);
  if (!decoded) {
    response.destroy();
    throw new ApiError(422, `Cannot fetch ${target.href}: the response uses the unsupported content encoding "${encoding}"`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    // A compressed body is measured as it inflates, so a small bomb cannot fill the memory.
    for await (const chunk of decoded) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (total > maxBytes || !response.complete) decoded.destroy();
  }
  return Buffer.concat(chunks);
}

async function saveBody(response: IncomingMessage, target: URL, maxBytes: number, path: string): Promise<IncomingFile> {
  const tooLarge = () => new ApiError(413, `Cannot fetch ${target.href}: the response is larger than ${maxBytes} bytes`);
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const declared = Number(response.headers['content-length']);
  if (encoding === 'identity' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const decoded = decode(response, encoding);
  if (!decoded) {
    response.destroy();
    throw new ApiError(422, `Cannot fetch ${target.href}: the response uses the unsupported content encoding "${encoding}"`);
  }
  try {
    return await writeIncoming(decoded, path, { maxBytes, tooLarge });
  } catch (error) {
    decoded.destroy();
    throw error;
  }
}

function decode(response: IncomingMessage, encoding: string): Readable | undefined {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (encoding === 'identity') return response;
  if (!decoder) return undefined;
  // The callback form destroys both streams on an error, which then surfaces while reading the decoder.
  return pipeline(response, decoder, () => {});
}

function describeNetworkError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return 'the host name could not be resolved';
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection was closed before a complete answer';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return 'the server did not answer valid HTTP';
    default:
      // zlib reports Z_DATA_ERROR and the like; brotli its own decoder codes (ERR__ERROR_FORMAT_…).
      if (typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code.includes('BROTLI'))) {
        return 'the compressed response is corrupt';
      }
      if (typeof code === 'string' && (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL'))) {
        return `the TLS connection failed (${code})`;
      }
      return typeof code === 'string' ? `the request failed (${code})` : 'the request failed';
  }
}

/**
 * The addresses of a host the operator named in a setting (a translation provider, a model): trusted by the
 * fetches to it, so that a provider next to the server is reachable even when private fetches are not allowed.
 * None when the name does not resolve (the fetch then says so).
 */
export async function operatorHostAddresses(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return [host];
  try {
    return (await lookupAll(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}
