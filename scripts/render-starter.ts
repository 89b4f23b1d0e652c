/**
 * `npm run starter:pdf`: renders the starter knowledge base's sources (supabase/starter/*.ms) to
 * PDF with groff (German hyphenation, -mde) and ghostscript's ps2pdf, as any office tool would
 * produce a real PDF. The PDFs are committed; run this after changing a source.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { starterDir, starterDocuments } from './starterKnowledge';

for (const { file } of starterDocuments) {
  const postscript = execFileSync('groff', ['-Kutf8', '-mde', '-Tps', `${file}.ms`], { cwd: starterDir });
  execFileSync('ps2pdf', ['-dPDFSETTINGS=/prepress', '-', join(starterDir, `${file}.pdf`)], { input: postscript });
  console.log(`supabase/starter/${file}.pdf`);
}
