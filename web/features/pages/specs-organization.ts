import { createContext } from 'react';

/**
 * The organization whose OpenAPI specs the blocks of the documents shown point at: the organization's screens
 * name it once for all of them (organizations/organization-layout.tsx), so every view of a document draws its
 * blocks (pages/render-openapi.tsx), the page view, a change's diff and a revision alike. A module of its own,
 * so that naming it loads none of the drawing.
 */
export const SpecsOrganizationContext = createContext<string | undefined>(undefined);
