// Module-level state, as Kyma users keep it (a counter and a small cache),
// served identically by Shoal and by the Node.js baseline.
const visits = new Map();
let served = 0;
module.exports = {
  main(event) {
    served += 1;
    const user = event.extensions.request.query.user || "anonymous";
    visits.set(user, (visits.get(user) || 0) + 1);
    return { served, user, visits: visits.get(user), users: visits.size };
  },
};
