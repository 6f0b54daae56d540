import { isRouteErrorResponse, useRouteError } from 'react-router';
import { errorMessage } from '../../api/client.ts';

/** What a screen that failed to load (a chunk missing after an upgrade, an error while rendering) shows. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <main id="main" className="app-main">
      <h1>This screen could not be shown</h1>
      <p role="alert" className="error-note">{message}</p>
      <p><a href={location.href}>Reload</a> · <a href="/app/">Home</a></p>
    </main>
  );
}
