// Notification Bot writes on behalf of whoever acted (Zulip's acting_user): channel links in its
// DMs render with the actor's access, so a private channel the bot cannot read still links.
import { expect, test } from 'vitest';
import { fetchMessages, IAGO, OTHELLO, post, sim } from './helpers.ts';

test('a subscription DM links the private channel the administrator subscribed you to', async () => {
  const s = sim();
  const coreTeam = [...s.engine.state.streams.values()].find((c) => c.name === 'core team')!;
  const res = await post(s, IAGO, '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'core team' }]), principals: '[12]' });
  expect(res.status).toBe(200);
  const dms = await fetchMessages(s, OTHELLO, { anchor: 'newest', num_before: 1, narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]) });
  const [latest] = dms.body.messages as { sender_email: string; content: string }[];
  expect(latest!.sender_email).toBe('notification-bot@zulip.com');
  expect(latest!.content).toContain(`<a class="stream" data-stream-id="${coreTeam.id}" href="/#narrow/channel/${coreTeam.id}-core-team">#core team</a>`);
});
