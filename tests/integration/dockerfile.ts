// The Dockerfile as the tests read it: its final stage (the image that runs), for the static check of
// what it copies (tests/unit/dockerfile.test.ts) and the assembled image's start (image.test.ts).

/** The final stage of the Dockerfile: its environment, copies and command (its WORKDIR is the assembled directory itself). */
interface FinalStage {
  env: Record<string, string>;
  copies: { from: string | null; sources: string[]; destination: string }[];
  cmd: string[];
}

/** Reads the Dockerfile's last stage (continuation lines joined). */
export function finalStage(dockerfile: string): FinalStage {
  const stage = dockerfile.split(/^FROM /m).at(-1)!;
  const lines = stage
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const result: FinalStage = { env: {}, copies: [], cmd: [] };
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/);
    if (instruction === "ENV") {
      for (const m of rest.join(" ").matchAll(/(\w+)=("([^"]*)"|\S+)/g)) result.env[m[1]!] = m[3] ?? m[2]!;
    } else if (instruction === "COPY") {
      const from = rest[0]?.startsWith("--from=") ? rest.shift()!.slice("--from=".length) : null;
      result.copies.push({ from, sources: rest.slice(0, -1), destination: rest.at(-1)! });
    } else if (instruction === "CMD") {
      result.cmd = JSON.parse(rest.join(" ")) as string[];
    }
  }
  return result;
}
