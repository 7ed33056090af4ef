// Calls to the /api/v1/ppas endpoints of a running app, with the checks every caller makes (status, problem
// content type, link walks that neither repeat nor lose a slug).
import { expect } from 'chai';

export interface ListBody {
  data: { slug: string; [key: string]: unknown }[];
  meta: {
    total: number;
    page: number;
    per_page: number;
    total_pages: number;
    sort: string;
    facets?: Record<string, { value: string | number; count: number }[]>;
  };
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  invalid_params?: { name: string; reason: string }[];
  [key: string]: unknown;
}

/** The calls against the app at `baseUrl()` (read on each call: the app starts in a `before` hook). */
export function ppasApi(baseUrl: () => string) {
  async function get(path: string): Promise<{ status: number; headers: Headers; body: unknown }> {
    const response = await fetch(path.startsWith('http') ? path : `${baseUrl()}${path}`);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function list(query: string): Promise<ListBody> {
    const { status, body } = await get(`/api/v1/ppas?${query}`);
    expect(status, query).to.equal(200);
    return body as ListBody;
  }

  /** Every page, following links.next; checks no slug repeats and the total holds. */
  async function walk(query: string): Promise<string[]> {
    const slugs: string[] = [];
    let url: string | null = `${baseUrl()}/api/v1/ppas?${query}`;
    let total: number | undefined;
    while (url) {
      const { status, body } = await get(url);
      expect(status, url).to.equal(200);
      const page = body as ListBody;
      total ??= page.meta.total;
      expect(page.meta.total).to.equal(total);
      slugs.push(...page.data.map((item) => item.slug));
      url = page.links.next;
    }
    expect(new Set(slugs).size, 'no slug repeats').to.equal(slugs.length);
    expect(slugs.length, 'no slug goes missing').to.equal(total);
    return slugs;
  }

  async function problem(path: string, status = 400): Promise<Problem> {
    const response = await get(path);
    expect(response.status, path).to.equal(status);
    expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    return response.body as Problem;
  }
  return { get, list, walk, problem };
}

export const paramNames = (body: Problem) =>
  [...new Set((body.invalid_params ?? []).map((p) => p.name))].sort();

export function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    if (match?.[1] && match[2]) links[match[2]] = match[1];
  }
  return links;
}

export function withoutNulls(links: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(links).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}
