import CourtsideModel

/// A tournament format's games, drawn from its teams: pure, so the same teams and seed always
/// give the same draw.
public enum Formats {}
