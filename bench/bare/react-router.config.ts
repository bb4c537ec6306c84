import type { Config } from "@react-router/dev/config";

/** The yardstick of bench/pages (bench/bare/README.md): React Router's defaults, server rendering. */
export default { ssr: true } satisfies Config;
