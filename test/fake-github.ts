import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHub {
  /** Its base URL, for GITHUB_API_URL. */
  url: string;
  close(): Promise<void>;
}

/**
 * A fake GitHub REST API on 127.0.0.1 for the tests of Git Sync through a GitHub account: it refuses any token but
 * `token` ("Bad credentials", as GitHub does), and answers a path with what `answer` gives for it and its page
 * (lists end with an empty page), or 404 "Not Found" when `answer` gives undefined.
 */
export async function startFakeGitHub(answer: (path: string, page: number) => unknown, token = 'ghp_good'): Promise<FakeGitHub> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { message: 'Bad credentials' });
    const url = new URL(req.url ?? '/', 'http://github.test');
    const body = answer(url.pathname, Number(url.searchParams.get('page') ?? 1));
    return body === undefined ? send(404, { message: 'Not Found' }) : send(200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
