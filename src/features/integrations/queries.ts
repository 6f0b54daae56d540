/**
 * What integration events read of integrations and installations (features/integration-events): the
 * integration by name, by id or as delivery needs it, an installation, the installations that hear of a change
 * on a space or site, and those a user may render as. Other features reach a feature's data through its
 * service.ts or its queries.ts, never its store.ts (.dependency-cruiser.cjs).
 */
export {
  findDeliveryIntegration,
  findInstallation,
  findIntegrationByName,
  installationsOnTarget,
  installationsVisibleTo,
  integrationExists,
  type DeliveryIntegration,
  type InstallationTarget,
  type IntegrationRow,
} from './store.ts';
export { integrationsByIds } from './installed-store.ts';
