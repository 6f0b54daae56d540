import type { BundledLanguage } from 'shiki';

/*
 * Code that looks like what documentation shows, one sample per common language, tokenized at start-up. A
 * grammar compiles each rule's regular expressions the first time a line reaches that rule, and the tokenizer
 * runs interpreted until V8 has seen it work for a while: a one-line warm-up leaves both for the first pages
 * readers open, which then cost two to three times their steady price. Each sample reaches the rules real code
 * reaches most: comments, strings with escapes and interpolation, numbers, keywords, calls, types, nesting.
 */
export const HIGHLIGHT_SAMPLES: Partial<Record<BundledLanguage, string>> = {
  bash: `#!/usr/bin/env bash
# Install and start the server
set -euo pipefail
export API_URL="https://api.example.com/v1"
for file in ./docs/*.md; do
  echo "Publishing \${file} to $API_URL" >&2
  curl -sS -X POST "$API_URL/pages" -H 'Content-Type: application/json' --data @"$file" | jq '.id'
done
if [[ -z "\${TOKEN:-}" ]]; then exit 1; fi
npm install --save @example/sdk@^2.1.0 && npm run build`,
  shell: `$ npm install @example/sdk
$ export TOKEN=abc123 && curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/user
$ ls -la ~/projects | grep -v node_modules # list`,
  json: `{
  "id": "page_123",
  "title": "Getting started",
  "published": true,
  "count": 42,
  "ratio": -1.5e3,
  "tags": ["guide", "api"],
  "author": { "name": "Ada \\"Lovelace\\"", "email": null }
}`,
  yaml: `# Site configuration
name: my-docs
version: 2.1
enabled: true
servers:
  - url: https://api.example.com/v1
    description: "Production"
  - url: 'http://localhost:8080'
env:
  NODE_ENV: production
  TIMEOUT_MS: 30000
steps: &defaults
  run: npm test && npm run build
message: |
  A block of text
  on two lines`,
  javascript: `// Fetch a page and print its title
import { Client } from '@example/sdk';
const client = new Client({ token: process.env.TOKEN, retries: 3 });
export async function printTitle(id, options = {}) {
  const { data } = await client.pages.get(id, { ...options, format: 'json' });
  const words = data.title?.split(/\\s+/).map((word) => word.toUpperCase()) ?? [];
  console.log(\`Page \${id}: \${words.join(' ')} (\${data.count * 2} views)\`);
  return words.length > 0 ? words : null;
}
class Cache extends Map { get size() { return super.size; } }
/* done */`,
  typescript: `import type { Page } from './types';
/** A page with its children. */
export interface Node<T extends Page = Page> { page: T; children: Node<T>[]; depth?: number }
export type Visitor = (node: Node, index: number) => boolean | void;
enum Kind { Document = 'document', Group = 'group' }
export class Tree<T extends Page> implements Iterable<Node<T>> {
  private readonly roots: Node<T>[] = [];
  constructor(private readonly options: { maxDepth: number } = { maxDepth: 16 }) {}
  add(page: T, parent?: Node<T>): Node<T> {
    const node: Node<T> = { page, children: [], depth: (parent?.depth ?? -1) + 1 };
    (parent?.children ?? this.roots).push(node);
    return node;
  }
  *[Symbol.iterator](): Iterator<Node<T>> { for (const root of this.roots) yield root; }
}
export const total = async (ids: readonly string[]): Promise<number> => ids.length as number;`,
  tsx: `import { useState } from 'react';
export function Counter({ start = 0 }: { start?: number }) {
  const [count, setCount] = useState<number>(start);
  return (
    <button type="button" className="counter" onClick={() => setCount(count + 1)}>
      Clicked {count} times
    </button>
  );
}`,
  python: `#!/usr/bin/env python3
"""Fetch a page and print its title."""
import os
from dataclasses import dataclass

@dataclass
class Page:
    id: str
    title: str = ""
    views: int = 0

def fetch(client, page_id: str, *, retries: int = 3) -> Page | None:
    # Retry on network errors
    for attempt in range(retries):
        try:
            data = client.get(f"/pages/{page_id}", params={"format": "json"})
            return Page(**data) if data else None
        except ConnectionError as error:
            print(f"attempt {attempt + 1} failed: {error!r}")
    raise RuntimeError('gave up')

if __name__ == "__main__":
    print([p.title.upper() for p in map(Page, os.environ.get("IDS", "").split(","))])`,
  go: `package main

import (
	"fmt"
	"net/http"
)

// Page is a published page.
type Page struct {
	ID    string \`json:"id"\`
	Title string \`json:"title"\`
}

func fetch(client *http.Client, id string) (*Page, error) {
	resp, err := client.Get(fmt.Sprintf("https://api.example.com/v1/pages/%s", id))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	for i := 0; i < 3; i++ {
		fmt.Println(i, 'x', 1.5)
	}
	return &Page{ID: id}, nil
}`,
  java: `package com.example.docs;

import java.util.List;

/** Fetches pages. */
public final class PageClient implements AutoCloseable {
    private static final int RETRIES = 3;
    private final String token;

    public PageClient(String token) { this.token = token; }

    @Override
    public void close() {}

    public List<String> titles(List<Page> pages) {
        // Upper-case titles
        return pages.stream().map(p -> p.title().toUpperCase()).toList();
    }
}`,
  html: `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Getting started</title>
  <link rel="stylesheet" href="/styles.css">
  <style>body { margin: 0; font-family: sans-serif; }</style>
</head>
<body>
  <!-- The navigation -->
  <nav class="menu" id="top"><a href="/guide?page=1&amp;sort=asc">Guide</a></nav>
  <button type="button" disabled onclick="copy()">Copy</button>
  <script>const answer = 42; document.querySelector('#top').hidden = answer > 1;</script>
</body>
</html>`,
  css: `/* Layout */
:root { --accent: #3b82f6; }
.page > .content, main article:not(.wide) {
  max-width: calc(100% - 2rem);
  margin: 0 auto;
  color: var(--accent);
  background: url("/bg.png") no-repeat;
}
@media (max-width: 768px) { .sidebar { display: none !important; } }
a:hover::after { content: '→'; transition: opacity 0.2s ease-in-out; }`,
  sql: `-- Pages published this week
SELECT p.id, p.title, COUNT(v.id) AS views
FROM pages AS p
LEFT JOIN visits v ON v.page_id = p.id AND v.created_at > NOW() - INTERVAL '7 days'
WHERE p.published = TRUE AND p.title LIKE 'Guide%'
GROUP BY p.id, p.title
HAVING COUNT(v.id) > 10
ORDER BY views DESC
LIMIT 20;
INSERT INTO audit (action, at) VALUES ('report', CURRENT_TIMESTAMP);`,
};
