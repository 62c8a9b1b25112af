export { ReadmarkClient } from './client.js';
export type { ClientOptions, ClientState, Counts, CountsDetail, Change, GapDetail, Transport, UnreadItem, UnreadPage } from './client.js';
export { ApiError } from './http.js';
export type { Problem, TokenSource } from './http.js';
export { ReadmarkBadge } from './badge.js';
export { ReadmarkInbox } from './inbox.js';

import { ReadmarkBadge } from './badge.js';
import { ReadmarkInbox } from './inbox.js';

/** Registers `<readmark-badge>` and `<readmark-inbox>`, unless names are already taken (a second copy of this module). */
export function defineElements(registry: CustomElementRegistry = customElements): void {
  if (!registry.get('readmark-badge')) registry.define('readmark-badge', ReadmarkBadge);
  if (!registry.get('readmark-inbox')) registry.define('readmark-inbox', ReadmarkInbox);
}
