export { McpProxy, type McpProxyOptions } from './proxy.js';
export { connectUpstream, upstreamTransport, type UpstreamSpec } from './upstream.js';
export { serverNameFor, serverNameForUrl } from './server-name.js';
