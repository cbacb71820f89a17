/// Built apps, Mach-O and profiles in depth (issue 5).
public enum ArtifactsModule {}
