// Query strings under Express 5's "simple" parser (node:querystring): no nesting.
module.exports = {
  main: function (event) {
    const q = event.extensions.request.query;
    const status = q['filter[status]'] || (q.filter && q.filter.status) || 'any';
    const tags = q.tags === undefined ? [] : Array.isArray(q.tags) ? q.tags : [q.tags];
    return {
      query: q,
      keys: Object.keys(q),
      status,
      filterIsNested: typeof q.filter === 'object',
      tags,
      page: Number(q.page || 1),
      prototypeIsNull: Object.getPrototypeOf(q) === null,
    };
  },
};
