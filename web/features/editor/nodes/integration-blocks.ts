/*
 * An `integration` block (GitBook's DocumentBlockIntegration: `{ integration, block, props, action?, url? }`) as
 * a ContentKit render request names it, and the `/` items for the blocks integrations declare. No DOM here.
 */

export interface IntegrationRender {
  integration: string;
  componentId: string;
  props: Record<string, unknown>;
}

/** What to ask the integration to render; undefined when the block names no integration or block. */
export function integrationRenderOf(data: Record<string, unknown> | undefined): IntegrationRender | undefined {
  const integration = data?.integration;
  const block = data?.block;
  if (typeof integration !== 'string' || !integration || typeof block !== 'string' || !block) return undefined;
  const props = data?.props;
  return { integration, componentId: block, props: props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, unknown>) : {} };
}

/** A new block of an integration's declared block, with no props yet (the integration fills them as it renders). */
export function newIntegrationBlock(integration: string, block: string): Record<string, unknown> {
  return { object: 'block', type: 'integration', isVoid: true, data: { integration, block, props: {} } };
}

/**
 * The blocks installed integrations declare, one `/` entry each: title and description are the manifest's, the icon
 * is the integration's.
 */
export interface DeclaredBlock {
  integration: string;
  id: string;
  title: string;
  /** One line: the manifest's, or whose block it is. */
  description: string;
  /** The integration's icon, only when this server serves it. */
  icon?: string;
}

interface Installed {
  name: string;
  title?: string;
  icon?: string;
  blocks: readonly { id: string; title: string; description?: string }[];
}

/**
 * The `/` entries of the integrations installed, whose icons are shown only from `origin` (this server): an image
 * from another host would tell it who opens the editor, and when.
 */
export function declaredBlocks(installed: readonly Installed[], origin?: string): DeclaredBlock[] {
  return installed.flatMap(({ name, title, icon, blocks }) => {
    const served = icon && origin && sameOrigin(icon, origin) ? { icon } : {};
    return blocks.map((b) => ({
      integration: name,
      id: b.id,
      title: b.title,
      // One line in the menu, whatever the manifest wrote.
      description: b.description?.replace(/\s+/g, ' ').trim() || `A block of the ${title ?? name} integration`,
      ...served,
    }));
  });
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url, origin).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
