package refereelink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The little JSON the link needs: strings written, the service's answers read (objects, lists, strings, numbers). */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  static void string(StringBuilder out, String v) {
    out.append('"');
    for (int k = 0; k < v.length(); k++) {
      final char c = v.charAt(k);
      switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (c < 0x20 || Character.isSurrogate(c) && !validSurrogate(v, k)) {
          out.append(String.format("\\u%04x", (int) (Character.isSurrogate(c) ? 0xfffd : c)));
        }
        else {
          out.append(c);
        }
      }
    }
    out.append('"');
  }

  private static boolean validSurrogate(String v, int k) {
    final char c = v.charAt(k);
    if (Character.isHighSurrogate(c)) {
      return k + 1 < v.length() && Character.isLowSurrogate(v.charAt(k + 1));
    }
    return k > 0 && Character.isHighSurrogate(v.charAt(k - 1));
  }

  static Object parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    final Json p = new Json(text);
    try {
      return p.value();
    }
    catch (RuntimeException e) {
      return null;          // not JSON (a proxy's error page): the caller goes by the status
    }
  }

  static Object get(Object o, String key) {
    return o instanceof Map ? ((Map<?, ?>) o).get(key) : null;
  }

  static List<?> list(Object o) {
    return o instanceof List ? (List<?>) o : Collections.emptyList();
  }

  static int integer(Object o, int otherwise) {
    return o instanceof Number ? ((Number) o).intValue() : otherwise;
  }

  private void ws() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private Object value() {
    ws();
    final char c = s.charAt(i);
    if (c == '{') {
      i++;
      final Map<String, Object> m = new LinkedHashMap<>();
      ws();
      if (s.charAt(i) == '}') {
        i++;
        return m;
      }
      while (true) {
        ws();
        final String k = str();
        ws();
        expect(':');
        m.put(k, value());
        ws();
        if (s.charAt(i) == ',') {
          i++;
          continue;
        }
        expect('}');
        return m;
      }
    }
    if (c == '[') {
      i++;
      final List<Object> l = new ArrayList<>();
      ws();
      if (s.charAt(i) == ']') {
        i++;
        return l;
      }
      while (true) {
        l.add(value());
        ws();
        if (s.charAt(i) == ',') {
          i++;
          continue;
        }
        expect(']');
        return l;
      }
    }
    if (c == '"') {
      return str();
    }
    if (s.startsWith("true", i)) {
      i += 4;
      return Boolean.TRUE;
    }
    if (s.startsWith("false", i)) {
      i += 5;
      return Boolean.FALSE;
    }
    if (s.startsWith("null", i)) {
      i += 4;
      return null;
    }
    final int b = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    final String n = s.substring(b, i);
    if (n.isEmpty()) {
      throw new IllegalArgumentException("not JSON at " + b);
    }
    if (n.contains(".") || n.contains("e") || n.contains("E")) {
      return Double.valueOf(n);
    }
    return Long.valueOf(n);
  }

  private void expect(char c) {
    if (s.charAt(i) != c) {
      throw new IllegalArgumentException("expected " + c + " at " + i);
    }
    i++;
  }

  private String str() {
    expect('"');
    final StringBuilder b = new StringBuilder();
    while (true) {
      final char c = s.charAt(i++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      final char e = s.charAt(i++);
      switch (e) {
      case 'n': b.append('\n'); break;
      case 'r': b.append('\r'); break;
      case 't': b.append('\t'); break;
      case 'b': b.append('\b'); break;
      case 'f': b.append('\f'); break;
      case 'u':
        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
        i += 4;
        break;
      default: b.append(e);
      }
    }
  }
}
