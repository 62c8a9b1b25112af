import type { ReadmarkClient } from './client.js';

/**
 * What both elements share: a `client` property, listened to while the element is in the document (so an element
 * removed from the page holds no listener and is collected), and a render on every event that may change it.
 */
export class ClientWatcher {
  private current: ReadmarkClient | null = null;
  private attached = false;
  private readonly listener: EventListener;

  constructor(private readonly types: readonly string[], onEvent: (event: Event) => void) {
    this.listener = onEvent;
  }

  get client(): ReadmarkClient | null {
    return this.current;
  }

  set client(client: ReadmarkClient | null) {
    if (client === this.current) return;
    const attached = this.attached;
    this.detach();
    this.current = client;
    if (attached) this.attach();
  }

  attach(): void {
    if (this.attached || !this.current) {
      this.attached = true;
      return;
    }
    for (const type of this.types) this.current.addEventListener(type, this.listener);
    this.attached = true;
  }

  detach(): void {
    if (this.attached && this.current) {
      for (const type of this.types) this.current.removeEventListener(type, this.listener);
    }
    this.attached = false;
  }
}

/**
 * A `client` set on the element before its class was defined is an own property that hides the class's setter once
 * the element is upgraded: hand it over to the setter.
 */
export function adoptClient(element: HTMLElement): void {
  if (!Object.hasOwn(element, 'client')) return;
  const properties = element as unknown as Record<string, unknown>;
  const client = properties.client;
  delete properties.client;
  properties.client = client;
}
