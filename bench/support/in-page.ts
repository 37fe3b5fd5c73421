// Code the console-queues benchmark runs inside Chromium, kept as source text: the benchmark's
// TypeScript runner rewrites functions (adding helpers the page does not have), so a function
// passed to page.evaluate would fail there.

/**
 * The baseline: every row fetched and put in one plain <table>, and the whole table fetched and
 * rendered again at every queues signal. What a console without virtualisation does.
 */
export const PLAIN_QUEUES_PAGE = `async function plainQueuesPage({ clusterId, total }) {
  const pageSize = 500;
  const render = async () => {
    const pages = await Promise.all(
      Array.from({ length: Math.ceil(total / pageSize) }, (_, i) =>
        fetch(\`/api/v1/clusters/\${clusterId}/queues?page=\${i + 1}&pageSize=\${pageSize}\`).then((r) =>
          r.json(),
        ),
      ),
    );
    const rows = pages.flatMap((p) => p.items);
    document.getElementById('rows').innerHTML = rows
      .map(
        (q) =>
          \`<tr><td>\${q.name}</td><td>\${q.address}</td><td>\${q.node}</td><td>\${q.routingType}</td><td>\${q.messageCount}</td><td>\${q.consumerCount}</td><td>\${q.deliveringCount}</td><td>\${q.messagesAdded}</td><td>\${q.messagesAcknowledged}</td><td>\${q.messagesExpired}</td><td>\${q.messagesKilled}</td><td>\${q.addedPerSecond}</td><td>\${q.acknowledgedPerSecond}</td><td>\${q.expiredPerSecond}</td><td>\${q.killedPerSecond}</td><td>\${q.paused}</td><td>\${q.changedAt}</td></tr>\`,
      )
      .join('');
    return rows.length;
  };
  document.body.innerHTML =
    '<div id="scroller" style="height: 700px; overflow: auto"><table style="font: 14px sans-serif"><tbody id="rows"></tbody></table></div>';
  const stream = new EventSource(\`/api/v1/stream?clusterId=\${clusterId}&topics=queues\`);
  stream.addEventListener('queues', () => void render());
  const rendered = await render();
  await new Promise((r) => requestAnimationFrame(r));
  return rendered;
}`;

/** Scrolls the element down `pixels` at every frame and returns each frame's interval. */
export const SCROLL_FRAMES = `function scrollFrames({ selector, frames, pixels }) {
  return new Promise((resolve) => {
    const el = document.querySelector(selector);
    const times = [];
    let last = performance.now();
    const step = () => {
      const now = performance.now();
      times.push(now - last);
      last = now;
      el.scrollTop = (el.scrollTop + pixels) % Math.max(1, el.scrollHeight - el.clientHeight);
      if (times.length <= frames) requestAnimationFrame(step);
      else resolve(times.slice(1));
    };
    requestAnimationFrame(step);
  });
}`;
