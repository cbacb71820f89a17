public enum ReportersPlaceholder {}
