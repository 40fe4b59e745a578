// An ESM Function ("type": "module") rendering Markdown release notes with marked.
import { marked } from 'marked';
import { createHash } from 'node:crypto';

marked.setOptions({ gfm: true, breaks: false });

const DEFAULT_NOTES = `# Release 1.4

Some **bold** and _italic_ text with \`code\` and a [link](https://kyma-project.io).

- item one
- item two

| col | value |
| --- | ----: |
| a   | 1     |

\`\`\`js
console.log("hi");
\`\`\`
`;

export async function main(event) {
  const source = typeof event.data === 'string' && event.data.length > 0 ? event.data : DEFAULT_NOTES;
  const html = await marked.parse(source);
  if (event.extensions.request.query.raw === '1') {
    event.setResponseContentType('text/html');
    return html;
  }
  return {
    html,
    inline: marked.parseInline('**x** & <y>'),
    tokens: marked.lexer(source).map((t) => t.type),
    etag: createHash('sha1').update(html).digest('hex'),
  };
}
