/** The methods Next hands to the app's proxy and routes; any other is refused in front of Next (unserved-methods.ts). */
export const SERVED_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The method a request really had, when the server passed it on to Next as OPTIONS: the proxy or
 * the route it reaches answers 405 with its own `Allow` (lib/http/methods.ts). The server strips
 * it from every other request, so a client cannot set it.
 */
export const REFUSED_METHOD_HEADER = "x-skillgate-refused-method";
