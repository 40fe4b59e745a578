// A structured-mode CloudEvent: the whole event is the JSON body.
module.exports = {
  main: function (event) {
    const data = event.data || {};
    return {
      type: event['ce-type'],
      source: event['ce-source'],
      id: event['ce-id'],
      specversion: event['ce-specversion'],
      time: event['ce-time'],
      datacontenttype: event['ce-datacontenttype'],
      eventtypeversion: event['ce-eventtypeversion'],
      data,
      greeting: `Welcome, ${data.firstName || 'stranger'}`,
    };
  },
};
