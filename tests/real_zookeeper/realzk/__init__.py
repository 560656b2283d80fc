"""The real-ZooKeeper referee (docs/real-zookeeper.md)."""
