// Bulk import: summarise a large JSON array (the runtime's body limit is 1 MB).
module.exports = {
  main: function (event) {
    const rows = Array.isArray(event.data) ? event.data : (event.data && event.data.rows) || [];
    let sum = 0;
    const byStatus = {};
    for (const r of rows) {
      sum += r.amount;
      byStatus[r.status] = (byStatus[r.status] || 0) + 1;
    }
    const size = Number(event.extensions.request.query.generate || 0);
    if (size > 0) {
      // A large response: `size` rows generated deterministically.
      return Array.from({ length: size }, (_, i) => ({ id: i, status: ['open', 'paid', 'void'][i % 3], amount: (i * 37) % 1000 }));
    }
    return { count: rows.length, sum, byStatus, contentLength: Number(event.extensions.request.get('content-length')) };
  },
};
