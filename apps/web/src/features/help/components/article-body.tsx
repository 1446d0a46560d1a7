import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** An article's plain text: paragraphs separated by a blank line; a paragraph of "- " lines is a list. */
export function ArticleBody({ body }: { body: string }) {
  const blocks = body.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return (
    <>
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        if (lines.every((l) => l.startsWith('- '))) {
          return (
            <Box component="ul" key={i} sx={{ pl: 3, my: 2, '& li': { mb: 0.75 } }}>
              {lines.map((l, j) => (
                <Typography component="li" key={j} sx={{ lineHeight: 1.7 }}>
                  {l.slice(2)}
                </Typography>
              ))}
            </Box>
          );
        }
        return (
          <Typography key={i} sx={{ mb: 2, lineHeight: 1.7 }}>
            {block}
          </Typography>
        );
      })}
    </>
  );
}
