import { route, type RouteConfig } from "@react-router/dev/routes";

/** One route, as SafeWindow's /login: bench/bare/README.md. */
export default [route("login", "routes/login.tsx")] satisfies RouteConfig;
