// Not a module of the web client: a name longer than any module's, on the class path where the modules are, so the
// tests show that pages serving modules check a name before they look it up (DemoPageIT, WebClientIT).
export const planted = true;
