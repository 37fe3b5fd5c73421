/** broker.xml that closes each notification capability gap (non-negotiable 4). */

export const PLUGIN_SNIPPET = `<!-- inside <core>: connection, address, delivery and expiry notifications -->
<broker-plugins>
   <broker-plugin class-name="org.apache.activemq.artemis.core.server.plugin.impl.NotificationActiveMQServerPlugin">
      <property key="SEND_CONNECTION_NOTIFICATIONS" value="true"/>
      <property key="SEND_ADDRESS_NOTIFICATIONS" value="true"/>
      <property key="SEND_DELIVERED_NOTIFICATIONS" value="true"/>
      <property key="SEND_EXPIRED_NOTIFICATIONS" value="true"/>
   </broker-plugin>
</broker-plugins>`;

export const securitySnippet = (
  role: string,
) => `<!-- inside <security-settings>: the most specific match wins, so list every permission -->
<security-setting match="activemq.notifications">
   <permission type="createNonDurableQueue" roles="${role}"/>
   <permission type="deleteNonDurableQueue" roles="${role}"/>
   <permission type="consume" roles="${role}"/>
</security-setting>`;

export const ACCEPTOR_SNIPPET = `<!-- inside <acceptors>: AMQP 1.0 on the multi-protocol acceptor; then register the node's amqpUrl -->
<acceptor name="artemis">tcp://0.0.0.0:61616?protocols=CORE,AMQP;amqpCredits=1000;amqpLowCredits=300</acceptor>`;

/** management.xml that lets the scraper's Jolokia user make, bound and remove Studio's ring (ADR-0015). */
export const ringAccessSnippet = (
  role: string,
) => `<!-- management.xml, inside <authorisation><role-access><match domain="org.apache.activemq.artemis">:
     Studio's scraper makes its ring of notifications on each live node, bounds it, and removes it
     with the cluster (a durable queue on activemq.notifications, at most ring-size messages) -->
<access method="createQueue" roles="${role}"/>
<access method="updateQueue" roles="${role}"/>
<access method="destroyQueue" roles="${role}"/>`;
