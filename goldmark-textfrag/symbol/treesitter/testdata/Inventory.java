package shop.stock;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts the items of a shop.
 */
@Service
@SuppressWarnings("unchecked")
public class Inventory {
    /** Items by SKU. */
    private final Map<String, Integer> counts = new HashMap<>();

    public static final int MAX = 10_000, MIN = 0;

    public Inventory() {
    }

    public Inventory(Map<String, Integer> initial) {
        counts.putAll(initial);
    }

    /** Adds one item. */
    public void add(String sku) {
        add(sku, 1);
    }

    @Override
    public String toString() {
        return counts.toString();
    }

    public void add(String sku, int n) {
        counts.merge(sku, n, Integer::sum);
    }

    public enum Unit {
        PIECE,
        BOX;

        int size() {
            return this == BOX ? 12 : 1;
        }
    }

    public record Line(String sku, int count) {
        public Line {
            if (count < 0) throw new IllegalArgumentException();
        }
    }

    static class Audit {
        interface Listener {
            void changed(String sku);
        }
    }
}
