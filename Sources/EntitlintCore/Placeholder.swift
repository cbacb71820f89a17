public enum CorePlaceholder {}
