import { HocuspocusProviderWebsocket } from '@hocuspocus/provider';

/*
 * The editors' side of the socket, shared by the web app's editor and the Node editors of the tests and the bench
 * (the Hocuspocus provider is a devDependency: the server itself never loads this module).
 */

/**
 * The provider's socket, which stays down once destroyed. When the server closes a connection, the socket
 * schedules a reconnect on a timer that its destroy() does not clear; the reconnect then sets it to connect again
 * and retries without end (a test process whose server had closed never exited; a page left behind kept a socket).
 */
export class FinalProviderWebsocket extends HocuspocusProviderWebsocket {
  private destroyed = false;

  override connect(): Promise<unknown> {
    if (this.destroyed) return Promise.resolve();
    return super.connect();
  }

  override destroy(): void {
    this.destroyed = true;
    super.destroy();
  }
}
