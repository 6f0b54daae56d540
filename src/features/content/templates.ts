import type { ContentChange } from './change-schemas.ts';

interface TemplatePage {
  title: string;
  markdown: string;
  pages?: TemplatePage[];
}

/**
 * Built-in space templates, by id. Each is a page tree written in markdown; applying one inserts its pages
 * after the space's existing root pages. Links between template pages use the batch's refs.
 */
interface Template { description: string; pages: TemplatePage[] }
const TEMPLATES: Record<string, Template> = {
  blank: { description: 'One empty page', pages: [{ title: 'Untitled', markdown: '' }] },
  'product-docs': {
    description: 'Product documentation: overview, quick start, guides and reference',
    pages: [
      {
        title: 'Overview',
        markdown: 'Welcome to the documentation of our product.\n\n{% hint style="info" %}\nNew here? Start with the [Quick start](./quick-start.md).\n{% endhint %}\n',
      },
      { title: 'Quick start', markdown: 'Get up and running in a few minutes.\n\n1. Create an account\n2. Install the product\n3. Follow the [first guide](./first-guide.md)\n' },
      {
        title: 'Guides',
        markdown: 'Step-by-step guides for common tasks.\n',
        pages: [{ title: 'First guide', markdown: 'A walk-through of the main workflow.\n' }],
      },
      { title: 'Reference', markdown: 'Every setting and option, in detail.\n\n| Option | Description |\n| --- | --- |\n| `name` | The name of the thing |\n' },
    ],
  },
  'api-reference': {
    description: 'API reference: authentication, endpoints and errors',
    pages: [
      { title: 'Introduction', markdown: 'This API lets you manage your resources programmatically.\n' },
      {
        title: 'Authentication',
        markdown: 'Send your token in the `Authorization` header:\n\n```bash\ncurl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/\n```\n',
      },
      {
        title: 'Endpoints',
        markdown: 'The resources of the API.\n',
        pages: [{ title: 'Users', markdown: 'List, create and update users.\n\n```http\nGET /v1/users\n```\n' }],
      },
      { title: 'Errors', markdown: 'Errors have the shape `{ "error": { "code", "message" } }`.\n' },
    ],
  },
  'knowledge-base': {
    description: 'Internal knowledge base: onboarding, processes and FAQ',
    pages: [
      { title: 'Welcome', markdown: 'Everything the team needs to know, in one place.\n' },
      {
        title: 'Onboarding',
        markdown: 'Your first week.\n\n- [ ] Get your accounts\n- [ ] Meet the team\n- [ ] Read the [processes](./processes.md)\n',
      },
      { title: 'Processes', markdown: 'How we work.\n', pages: [{ title: 'Releases', markdown: 'How a release is prepared and shipped.\n' }] },
      { title: 'FAQ', markdown: '<details>\n\n<summary>Where do I ask questions?</summary>\n\nIn the team channel.\n\n</details>\n' },
    ],
  },
};

export const TEMPLATE_IDS = Object.keys(TEMPLATES);

// Ids come from callers: only the templates' own keys count ("__proto__" or "toString" are not templates).
const templateOf = (id: string): Template | undefined => (Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined);

export function templateDescription(id: string): string | undefined {
  return templateOf(id)?.description;
}

/** The template as insert_page changes (parents before children), or undefined for an unknown id. */
export function templateChanges(id: string): ContentChange[] | undefined {
  const template = templateOf(id);
  if (!template) return undefined;
  const changes: ContentChange[] = [];
  const walk = (pages: TemplatePage[], into: string | undefined) => {
    for (const page of pages) {
      const ref = page.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      changes.push({ operation: 'insert_page', title: page.title, ref, ...(into ? { into } : {}), document: page.markdown ? { markdown: page.markdown } : {} });
      walk(page.pages ?? [], ref);
    }
  };
  walk(template.pages, undefined);
  return changes;
}
