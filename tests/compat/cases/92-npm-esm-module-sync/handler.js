// An ES module Function importing a package whose "exports" has a
// "module-sync" condition (graphql 17): Node 24 takes its ES module build,
// so the namespace has graphql's exports and no `default`; and a query run.
import * as graphql from 'graphql';

const schema = graphql.buildSchema('type Query { hello(name: String): String, count: Int }');
const root = { hello: ({ name }) => `Hello, ${name || 'world'}!`, count: () => 3 };

export function main(event) {
  const source = (event.data && event.data.query) || '{ hello count }';
  const result = graphql.graphqlSync({ schema, source, rootValue: root });
  return {
    hasDefault: Object.keys(graphql).includes('default'),
    exports: Object.keys(graphql).length,
    result: JSON.parse(JSON.stringify(result)),
  };
}
