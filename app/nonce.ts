import { createContext, useContext } from "react";

/** The CSP nonce of this response, given to <Scripts> and inline scripts. Empty in the browser. */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
