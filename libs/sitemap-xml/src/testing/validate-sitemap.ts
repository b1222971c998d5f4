// Validates rendered output with the lib's own validator: the XSDs in libs/sitemap-xml/schemas
// through libxml2 (WebAssembly) and the protocol's rules. Nothing outside the repository.
import { formatProblem, validateSitemapFile } from '../validate/sitemap.validator';

export interface ValidationResult {
  ok: boolean;
  output: string;
}

export async function validateSitemaps(documents: Record<string, string | Buffer>): Promise<ValidationResult> {
  const reports = await Promise.all(
    Object.entries(documents).map(([name, content]) =>
      validateSitemapFile(name, typeof content === 'string' ? Buffer.from(content) : content),
    ),
  );
  const problems = reports.flatMap((report) => report.problems);
  return { ok: problems.length === 0, output: problems.map(formatProblem).join('\n') };
}
