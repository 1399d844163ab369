// The part of zulip-js (which ships no type declarations) the examples use, so that `npm run
// typecheck` checks them. Every call answers Zulip's JSON: `result` is "success" or "error".
declare module 'zulip-js' {
  export interface ZulipResponse {
    result: 'success' | 'error';
    msg: string;
    code?: string;
    [key: string]: any;
  }

  type Params = Record<string, unknown>;
  type Call = (params?: Params) => Promise<ZulipResponse>;

  export interface ZulipClient {
    users: { me: { getProfile: Call } };
    queues: { register: Call; deregister: Call };
    events: { retrieve: Call };
    messages: { send: Call };
    callEndpoint(endpoint: string, method?: string, params?: Params): Promise<ZulipResponse>;
  }

  export type ZulipConfig = { username: string; apiKey: string; realm: string } | { zuliprc: string };

  export default function zulipInit(config: ZulipConfig): Promise<ZulipClient>;
}
