import EntitlintCore
import Yams

extension Node {
    /// The tag YAML resolved for this node (`tag:yaml.org,2002:str`, `...:int`, ...): a plain
    /// `123`, `yes` or `~` is a number, a boolean or null; a quoted scalar is a string.
    var resolvedTagName: Tag.Name { Tag.Name(rawValue: tag.description) }
}
