package org.readsim.cluster;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.node.MockNode;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * One OpenSearch node of readsim's test cluster, in a JVM of its own.
 *
 * <p>Started by {@code .ci/opensearch-cluster}: the node listens on 127.0.0.1
 * only, with HTTP and transport over Netty, the common analysers and
 * Painless (for scripted similarities) as classpath plugins, as the
 * OpenSearch test framework's {@link MockNode} starts its nodes. Security
 * is off (no security plugin is loaded). The node runs until the JVM is
 * ended (SIGTERM closes it cleanly).
 *
 * <p>Arguments: home folder, node name, HTTP port, transport port, the
 * seed hosts (host:port, comma-separated), the names of the nodes that
 * elect the first cluster manager (comma-separated) and the cluster's
 * name. The name is unique per cluster (the script draws it), so a node
 * never joins another cluster that happens to listen on a seed's port.
 *
 * <p>A node that cannot start (a port taken meanwhile) ends the JVM with
 * status 1 at once: the threads the node had started must not keep a
 * half-started process alive.
 */
public final class ReadsimNode {
    private ReadsimNode() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: ReadsimNode HOME NAME HTTP_PORT TRANSPORT_PORT SEEDS MANAGERS CLUSTER");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Settings settings = Settings.builder()
            .put("cluster.name", args[6])
            .put("node.name", args[1])
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("network.host", "127.0.0.1")
            .put("http.port", args[2])
            .put("transport.port", args[3])
            .putList("discovery.seed_hosts", Arrays.asList(args[4].split(",")))
            .putList("cluster.initial_cluster_manager_nodes", Arrays.asList(args[5].split(",")))
            // a shared test machine's disk may be nearly full: never make
            // the indexes read-only for it
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .put("logger.level", "INFO")
            .build();
        LogConfigurator.registerErrorListener();
        LogConfigurator.setNodeName(args[1]);
        LogConfigurator.configureWithoutConfig(settings);
        Node node = new MockNode(settings, List.of(Netty4Plugin.class, CommonAnalysisPlugin.class, PainlessPlugin.class));
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                closed.countDown();
            }
        }));
        try {
            node.start();
        } catch (Throwable e) {
            System.err.println("readsim node " + args[1] + " did not start: " + e);
            e.printStackTrace();
            Runtime.getRuntime().halt(1);
        }
        closed.await();
    }
}
