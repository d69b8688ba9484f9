"""What each network learns: its examples, its model and its loss.

The trainer (training/trainer.py) runs the same loop for every network; a
Task supplies the parts that differ. PolicyTask is AlphaGo's SL policy
(cross-entropy on the move played), ValueTask its value network (MSE on the
game's outcome, with an optional training-only move head), HeadsTask the
four-headed network (policy, value, ownership and score on one trunk).
"""

import os

import numpy as np
import torch
import torch.nn.functional as F

from goengine.nn import netfile, nets, surgery
from training.dataset import load_split
from training import sampler
from training.sampler import HeadsExamples, PolicyExamples, ValueExamples, sample_examples


class Task:
    """What differs between networks; the trainer calls these."""
    kind = ""             # "policy" or "value"
    metrics = ()          # names of the per-example metrics loss() sums, e.g. ("loss", "top1")
    examples = None       # a training.sampler example maker
    val_examples = None   # the held-out sample's maker, if not `examples`

    def build_model(self, args):
        raise NotImplementedError

    def forward(self, model, x):
        """The network's output for a batch, in fp32 (what loss() receives)."""
        return model(x).float()

    def prepare_store(self, store):
        """The game store as this task reads it (HeadsTask loads its labels)."""
        return store

    def selfplay_targets(self, outcomes):
        """Targets of self-play value records (--selfplay), which hold an outcome and no
        move a strong player chose: the tasks with a value head say how they skip the rest."""
        raise NotImplementedError(f"the {self.kind} trainer takes no self-play records")

    def loss(self, output, targets):
        """(mean loss to minimise, {metric: its sum over the batch as a 0-d tensor, or
        (sum, count) where only `count` examples have its target}); a Tally adds them up.

        Tensors, not floats: reading a GPU value waits for the step, so the
        trainer reads the sums only when it logs."""
        raise NotImplementedError


class Tally:
    """A task's metrics added up over batches, each the mean over the examples that have
    its target: a metric that no example had a target for is NaN, not 0 (a held-out
    sample without ownership maps has no ownership loss)."""

    def __init__(self, metrics):
        self.totals = {metric: [0.0, 0] for metric in metrics}

    def add(self, sums, n):
        """One batch's sums (Task.loss) over its `n` examples."""
        for metric, total in self.totals.items():
            value = sums.get(metric)
            if value is not None:
                part, count = value if isinstance(value, tuple) else (value, n)
                total[0] += part
                total[1] += count

    def means(self):
        return {metric: float(part) / float(count) if float(count) else float("nan")
                for metric, (part, count) in self.totals.items()}


class PolicyTask(Task):
    """Cross-entropy on the move played; top-1 accuracy is the paper's headline number."""
    kind = "policy"
    metrics = ("loss", "top1")
    examples = PolicyExamples()

    def build_model(self, args):
        return nets.PolicyNet(nets.POLICY_PLANES, args.filters, args.layers, 19, batch_norm=True)

    def loss(self, logits, moves):
        loss = F.cross_entropy(logits, moves)
        top1 = (logits.argmax(1) == moves).sum()
        return loss, {"loss": loss.detach() * len(moves), "top1": top1}


def policy_planes_for_statistics(args, positions=1024, examples=None):
    """Policy planes (or `examples`' planes) of training positions, to measure a folded
    trunk's BN statistics."""
    store = load_split("train", args.data_dir, args.cache_dir, log=lambda message: None)
    rng = np.random.default_rng([args.seed, 7])
    games = (store[int(i)] for i in rng.permutation(len(store))[:positions // 2])
    planes, _ = sample_examples(examples or PolicyExamples(), games, 2, rng)
    return planes[:positions]


def load_policy(path, args):
    """A BN policy net from a policy training checkpoint or a network file.

    A shipped (folded) file gets its BN back with statistics measured on
    training positions (surgery.unfold_batch_norm). Copied into the value net
    without that, BN would start at gamma 1, beta 0, and in training mode
    (batch statistics) the trunk would compute something else than the policy.
    """
    try:
        policy = netfile.load_network(path, kind="policy")
        if not policy.batch_norm:
            policy = surgery.unfold_batch_norm(policy, policy_planes_for_statistics(args))
        return policy
    except netfile.NetworkLoadError:
        state = torch.load(path, map_location="cpu", weights_only=True)
        if not isinstance(state, dict) or state.get("kind") != "policy":
            raise SystemExit(f"{path}: neither a policy network nor a policy training checkpoint")
        model = nets.PolicyNet(**state["arch"])
        model.load_state_dict(state["model"])
        return model


class ValueTask(Task):
    """MSE on the outcome, plus (move_weight > 0) cross-entropy of a training-only move head.

    Why the move head: one outcome per game is a weak, noisy signal, and value
    nets trained on it alone here stayed at the constant-output MSE of 1.0
    (docs/TRAINING.md). The move played is a dense signal on the same trunk
    that keeps its features those of a Go player; the export drops the head.
    """
    kind = "value"

    def __init__(self, late_fraction=None, move_weight=0.0):
        self.move_weight = move_weight
        with_moves = move_weight > 0
        self.metrics = ("mse", "move_loss", "top1") if with_moves else ("mse",)
        self.examples = ValueExamples(late_fraction or 0.0, with_moves)
        self.val_examples = ValueExamples(with_moves=with_moves)  # always on whole games

    def build_model(self, args):
        model = nets.ValueNet(nets.VALUE_PLANES, args.filters, args.layers, 19, batch_norm=True,
                              move_head=self.move_weight > 0)
        if args.init_from_policy:
            surgery.init_value_from_policy(model, load_policy(args.init_from_policy, args))
        return model

    def selfplay_targets(self, outcomes):
        """The outcome; with a move head, (outcome, -1): the move head skips them."""
        if self.move_weight <= 0:
            return outcomes
        return np.stack([outcomes, np.full_like(outcomes, -1.0)], axis=1)

    def forward(self, model, x):
        if self.move_weight <= 0:
            return model(x).float()
        if not getattr(model, "module", model).move_head:   # model may be a DDP wrapper
            raise SystemExit("this network has no move head (a shipped file has none): "
                             "pass --move-weight 0")
        values, logits = model(x, with_moves=True)
        return values.float(), logits.float()

    def loss(self, output, targets):
        if self.move_weight <= 0:
            loss = F.mse_loss(output, targets)
            return loss, {"mse": loss.detach() * len(targets)}
        values, logits = output
        outcomes, moves = targets[:, 0], targets[:, 1].long()
        mse = F.mse_loss(values, outcomes)
        played = moves >= 0  # passes (-1) have no move output
        # the mean over played moves; a batch of self-play records alone has none
        move_sum = (F.cross_entropy(logits, moves, ignore_index=-1, reduction="sum"),
                    played.sum())
        top1_sum = masked_sum((logits.argmax(1) == moves).float(), played.float())
        sums = {"mse": mse.detach() * len(targets),
                "move_loss": (move_sum[0].detach(), move_sum[1]), "top1": top1_sum}
        return mse + self.move_weight * mean_of(move_sum), sums



class HeadsTask(Task):
    """One trunk, four heads (nets.HeadsNet), trained on the human games and their
    final-board labels: policy cross-entropy + value_weight x outcome MSE +
    ownership_weight x ownership cross-entropy + score_weight x score cross-entropy.

    Each loss is the mean over the examples that have its target: every example
    has a move; games lost on time or by forfeit have no outcome; only labelled
    games (tools/label_games.py) have an ownership map, and only counted ones a
    margin. AlphaGo Zero weighted its supervised value loss 0.01 against
    overfitting the one outcome of a game's many positions; the ownership map
    gives every position 361 targets, hence the larger default weight.

    With a teacher (a larger four-headed network, frozen), the policy and value
    learn from it too, as Lc0 distilled its small networks: the policy loss is
    (1 - teacher_weight) x the human move's cross-entropy + teacher_weight x the
    cross-entropy against the teacher's move distribution, and the value's MSE
    is taken the same way against the outcome and the teacher's value (the
    teacher has a value for every position, the game only one outcome). The
    reported policy_loss and top1 stay the human move's, comparable with any run.

    With teacher labels (a folder of tools/label_teacher.py's shards), the positions are the
    labelled ones (sampler.TeacherExamples): the teacher's move distribution and value join
    the human move and the outcome in the same way, and its ownership map and lead are the
    ownership and score targets; no final-board labels are read. The held-out sample keeps
    the human move and the outcome.
    """
    kind = "heads"
    metrics = ("loss", "policy_loss", "top1", "mse", "ownership_loss", "ownership_agree",
               "score_loss")

    def __init__(self, value_weight=0.25, ownership_weight=1.0, score_weight=0.02,
                 teacher=None, teacher_weight=0.5, teacher_labels=None, log=print):
        self.value_weight, self.ownership_weight = value_weight, ownership_weight
        self.score_weight = score_weight
        self.examples = HeadsExamples()
        self.teacher, self.teacher_weight = teacher, teacher_weight
        self.teacher_labels, self.log = teacher_labels, log
        if teacher is not None or teacher_labels is not None:
            self.metrics = HeadsTask.metrics + ("teacher_policy_loss", "teacher_mse")
        if teacher is not None:
            for parameter in teacher.parameters():
                parameter.requires_grad_(False)
        if teacher_labels is not None:
            self.examples = self.val_examples = HeadsExamples(final_labels=False)

    def prepare_store(self, store):
        if self.teacher_labels is not None:
            return store
        from training.labels import LabelError
        try:
            return store.load_labels()
        except LabelError as exc:
            raise SystemExit(str(exc)) from None

    def prepare_training_store(self, store):
        """The training store; with teacher labels, the examples become their positions."""
        if self.teacher_labels is None:
            return self.prepare_store(store)
        from training import teacher_labels
        try:
            labels = teacher_labels.read_labels(self.teacher_labels, teacher_labels.store_digest(store))
        except teacher_labels.TeacherLabelError as exc:
            raise SystemExit(str(exc)) from None
        if not labels:
            raise SystemExit(f"{self.teacher_labels}: no teacher labels yet "
                             f"(tools/label_teacher.py --out {self.teacher_labels} makes them)")
        # The labelled games alone, saved beside the labels for the batch workers: a stream
        # over all the games would find a labelled one in a chunk now and then.
        games = np.unique(labels["game"])
        labelled = store.subset(games)
        labelled.save(os.path.join(self.teacher_labels, "labelled-games.npz"))
        labels = dict(labels, game=np.searchsorted(games, labels["game"]).astype(np.int32))
        self.examples = sampler.TeacherExamples(labels)
        self.log(f"teacher labels: {len(labels['game'])} positions of {len(games)} games "
                 f"from {self.teacher_labels}")
        return labelled

    def build_model(self, args):
        if getattr(args, "init_from_value", None):
            return self.from_value_network(args)
        model = nets.HeadsNet(nets.VALUE_PLANES, args.filters, args.layers, 19, batch_norm=True)
        if args.init_from_policy:
            surgery.init_value_from_policy(model, load_policy(args.init_from_policy, args))
        return model

    @staticmethod
    def from_value_network(args):
        """The trunk and value head of a shipped value network (weights/value-k64.pt), its
        BN put back with statistics measured on training positions (unfold_batch_norm)."""
        try:
            value = netfile.load_network(args.init_from_value, kind="value", fold=True)
        except netfile.NetworkLoadError as exc:
            raise SystemExit(str(exc)) from None
        plain = nets.HeadsNet(value.planes, value.filters, value.layers, value.board_size,
                              hidden=value.hidden)
        try:
            surgery.init_heads_from_value(plain, value)
        except ValueError as exc:
            raise SystemExit(f"{args.init_from_value}: {exc}") from None
        planes = policy_planes_for_statistics(args, examples=ValueExamples())
        return surgery.unfold_batch_norm(plain, planes)

    def selfplay_targets(self, outcomes):
        """The outcome alone: no move (-1, the policy skips them), no ownership map, no
        margin, so a self-play record trains the value head and, through it, the trunk."""
        targets = np.zeros((len(outcomes), sampler.HEADS_OWNERSHIP + 19 * 19), np.float32)
        targets[:, sampler.HEADS_MOVE] = -1
        targets[:, sampler.HEADS_OUTCOME] = outcomes
        targets[:, sampler.HEADS_HAS_OUTCOME] = 1
        targets[:, sampler.HEADS_MARGIN] = np.nan
        return targets

    def forward(self, model, x):
        """The network's four outputs, and with a teacher the teacher's policy and value after them."""
        output = tuple(output.float() for output in model(x))
        if self.teacher is None:
            return output
        if next(self.teacher.parameters()).device != x.device:
            self.teacher = self.teacher.to(x.device, memory_format=torch.channels_last)
        with torch.no_grad():
            teacher_policy, teacher_value = self.teacher(x)[:2]
        return output + (teacher_policy.float(), teacher_value.float())

    def loss(self, output, targets):
        policy, value, ownership, score = output[:4]
        moves = targets[:, sampler.HEADS_MOVE].long()
        has_move = (moves >= 0).float()     # self-play records (--selfplay) have none
        policy_sum = masked_sum(F.cross_entropy(policy, moves.clamp(min=0), reduction="none"),
                                has_move)
        top1_sum = masked_sum((policy.argmax(1) == moves).float(), has_move)

        has_outcome = targets[:, sampler.HEADS_HAS_OUTCOME]
        outcomes = targets[:, sampler.HEADS_OUTCOME]
        mse_sum = masked_sum((value - outcomes) ** 2, has_outcome)
        policy_loss, mse = mean_of(policy_sum), mean_of(mse_sum)
        policy_fit, value_fit, extra = policy_loss, mse, {}
        if targets.shape[1] > sampler.TEACHER_POLICY:     # teacher labels (TeacherExamples)
            wanted = targets[:, sampler.TEACHER_POLICY:sampler.TEACHER_POLICY + policy.shape[1]]
            wanted = wanted / wanted.sum(1, keepdim=True).clamp(min=1e-6)   # pass left out
            teacher_policy_loss = -(wanted * F.log_softmax(policy, 1)).sum(1).mean()
            teacher_value = targets[:, sampler.TEACHER_VALUE]
            has_value = ~torch.isnan(teacher_value)
            teacher_mse_sum = masked_sum((value - torch.nan_to_num(teacher_value)) ** 2,
                                         has_value.float())
            teacher_mse = mean_of(teacher_mse_sum)
            w = self.teacher_weight
            policy_fit = (1 - w) * policy_loss + w * teacher_policy_loss
            value_fit = (1 - w) * mse + w * teacher_mse
            extra = {"teacher_policy_loss": teacher_policy_loss * len(targets),
                     "teacher_mse": teacher_mse_sum}
        elif self.teacher is not None:
            teacher_policy, teacher_value = output[4:]
            teacher_policy_loss = -(F.softmax(teacher_policy, 1)
                                    * F.log_softmax(policy, 1)).sum(1).mean()
            teacher_mse = ((value - teacher_value) ** 2).mean()
            w = self.teacher_weight
            policy_fit = (1 - w) * policy_loss + w * teacher_policy_loss
            value_fit = (1 - w) * mse + w * teacher_mse
            extra = {"teacher_policy_loss": teacher_policy_loss * len(targets),
                     "teacher_mse": teacher_mse * len(targets)}

        has_owner = targets[:, sampler.HEADS_HAS_OWNERSHIP]
        owner = targets[:, sampler.HEADS_OWNERSHIP:sampler.TEACHER_POLICY]
        p = ((1 + ownership) / 2).clamp(1e-4, 1 - 1e-4)
        q = (1 + owner) / 2
        point_loss = -(q * p.log() + (1 - q) * (1 - p).log()).mean(1)
        ownership_sum = masked_sum(point_loss, has_owner)
        decided = owner != 0
        agree = (((ownership > 0) == (owner > 0)) & decided).float().sum(1) \
            / decided.float().sum(1).clamp(min=1)

        margin = targets[:, sampler.HEADS_MARGIN]
        has_margin = ~torch.isnan(margin)
        bins = (torch.nan_to_num(margin).round().clamp(-nets.SCORE_RANGE, nets.SCORE_RANGE)
                + nets.SCORE_RANGE).long()
        score_sum = masked_sum(F.cross_entropy(score, bins, reduction="none"), has_margin.float())

        loss = (policy_fit + self.value_weight * value_fit
                + self.ownership_weight * mean_of(ownership_sum)
                + self.score_weight * mean_of(score_sum))
        sums = {"loss": loss * len(targets), "policy_loss": policy_sum, "top1": top1_sum,
                "mse": mse_sum, "ownership_loss": ownership_sum,
                "ownership_agree": masked_sum(agree, has_owner), "score_loss": score_sum,
                **extra}
        return loss, {k: tuple(t.detach() for t in v) if isinstance(v, tuple) else v.detach()
                      for k, v in sums.items()}


def masked_sum(values, mask):
    """(the sum of `values` where `mask` is 1, how many such examples): a metric over the
    examples that have its target (Tally)."""
    return (values * mask).sum(), mask.sum()


def mean_of(masked):
    """The mean of a masked_sum (0 where no example has the target, so it adds no loss)."""
    total, count = masked
    return total / count.clamp(min=1)
